/* te-wheel stand-in for the part of Transformer Engine's transformer_engine.h that makes tensors (not NVIDIA code).
 * Names, values and layouts are TE's; only the functions the stand-in library exports are declared. */
#ifndef TRANSFORMER_ENGINE_TRANSFORMER_ENGINE_H_
#define TRANSFORMER_ENGINE_TRANSFORMER_ENGINE_H_

#include <cuda_runtime_api.h>
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

enum NVTEDType {
  kNVTEByte = 0,
  kNVTEInt16 = 1,
  kNVTEInt32 = 2,
  kNVTEInt64 = 3,
  kNVTEFloat32 = 4,
  kNVTEFloat16 = 5,
  kNVTEBFloat16 = 6,
  kNVTEFloat8E4M3 = 7,
  kNVTEFloat8E5M2 = 8,
  kNVTEFloat8E8M0 = 9,
  kNVTEFloat4E2M1 = 10,
  kNVTENumTypes
};

/* Up to 15 extents, ndim of them valid. */
struct NVTEShape {
  size_t data[15];
  size_t ndim;
};

/* One buffer of a tensor; it does not own the memory. */
struct NVTEBasicTensor {
  void *data_ptr;
#ifdef __cplusplus
  NVTEDType dtype;
  NVTEShape shape;
#else
  enum NVTEDType dtype;
  struct NVTEShape shape;
#endif
};

enum NVTETensorParam {
  kNVTERowwiseData = 0,
  kNVTEColumnwiseData = 1,
  kNVTEScale = 2,
  kNVTEAmax = 3,
  kNVTERowwiseScaleInv = 4,
  kNVTEColumnwiseScaleInv = 5,
  kNVTEColumnwiseAmax = 6,
  kNVTEWithGEMMSwizzledScales = 7,
  kNVTERowScaledNVFP4 = 8,
  kNVTENVFP4E4M3Max = 9,
  kNVTENumTensorParams
};

enum NVTEScalingMode {
  NVTE_DELAYED_TENSOR_SCALING = 0,
  NVTE_MXFP8_1D_SCALING = 1,
  NVTE_BLOCK_SCALING_1D = 2,
  NVTE_BLOCK_SCALING_2D = 3,
  NVTE_NVFP4_1D_SCALING = 4,
  NVTE_INVALID_SCALING = 100
};

#ifndef __cplusplus
/* TE's header is written for C++, where the tags are type names; these let C include it too. */
typedef enum NVTEDType NVTEDType;
typedef struct NVTEShape NVTEShape;
typedef struct NVTEBasicTensor NVTEBasicTensor;
typedef enum NVTETensorParam NVTETensorParam;
typedef enum NVTEScalingMode NVTEScalingMode;
#endif

/* A tensor: buffers set with nvte_set_tensor_param, owned by the caller. */
typedef void *NVTETensor;

NVTETensor nvte_create_tensor(NVTEScalingMode scaling_mode);
void nvte_destroy_tensor(NVTETensor tensor);
void *nvte_tensor_data(const NVTETensor tensor);
NVTEShape nvte_tensor_shape(const NVTETensor tensor);
NVTEDType nvte_tensor_type(const NVTETensor tensor);
void nvte_set_tensor_param(NVTETensor *tensor, NVTETensorParam param_name, const NVTEBasicTensor *param);

#ifdef __cplusplus
}
#endif

#endif /* TRANSFORMER_ENGINE_TRANSFORMER_ENGINE_H_ */
