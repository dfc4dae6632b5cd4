package dev.tewheel.bundle.cuda;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.Optional;
import java.util.OptionalInt;
import org.junit.jupiter.api.Test;

/** A CUDA variant as written and as a TE library's DT_NEEDED names say it, by the one SONAME table. */
class CudaVariantTest {
  @Test
  void aVariantIsWrittenAsTheMajorOrAsCuAndTheMajor() {
    assertEquals(Optional.of(13), CudaVariant.parse("13"));
    assertEquals(Optional.of(12), CudaVariant.parse(" cu12 "));
    for (String no : new String[] {"", "cu", "0", "cu012", "12.9", "sm90", "12345"}) {
      assertEquals(Optional.empty(), CudaVariant.parse(no), no);
    }
  }

  @Test
  void aLibraryWhoseSonameMajorIsTheCudaMajorSaysALaterMajorToo() {
    // libcudart's SONAME major is the CUDA major in every major the table lists, so a cu14 build is known as such;
    // te-runtime's class-path choice read it so before it asked this table.
    assertEquals(OptionalInt.of(14), CudaSonames.parse("libcudart.so.14").orElseThrow().cudaMajor());
    assertEquals(OptionalInt.of(13), CudaSonames.parse("libcublasLt.so.13").orElseThrow().cudaMajor());
    // cuFFT's is not (11 in CUDA 12, 12 in CUDA 13): only the table's rows say its CUDA major.
    assertEquals(OptionalInt.of(13), CudaSonames.parse("libcufft.so.12").orElseThrow().cudaMajor());
    assertEquals(OptionalInt.empty(), CudaSonames.parse("libcufft.so.13").orElseThrow().cudaMajor());
    assertEquals(Optional.empty(), CudaSonames.parse("libnccl.so.2"));
  }
}
