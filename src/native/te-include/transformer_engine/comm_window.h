/* te-wheel stand-in for Transformer Engine's comm_window.h (not NVIDIA code): an NCCL window and offset for a
 * zero-copy payload; {NULL, 0, NULL, 0} means "use the tensor's data pointer". */
#ifndef TRANSFORMER_ENGINE_COMM_WINDOW_H_
#define TRANSFORMER_ENGINE_COMM_WINDOW_H_

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

struct ncclWindow_vidmem; /* NCCL's window type, without including nccl.h */

typedef struct {
  struct ncclWindow_vidmem *window;       /* the payload's window, or NULL */
  uint64_t offset;                        /* byte offset of the payload in window */
  struct ncclWindow_vidmem *scale_window; /* a block-scaled tensor's scale-inverse window, or NULL */
  uint64_t scale_offset;
} NVTECommWindow;

#ifdef __cplusplus
}
#endif

#endif /* TRANSFORMER_ENGINE_COMM_WINDOW_H_ */
