package dev.tewheel.loader;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The variables a caller hands the model: those getenv has a value for, by name, an empty value being a value. */
class EnvironmentTest {
  @Test
  void theSetVariablesAreKeptByNameTheUnsetLeftOutAndAnEmptyOneKept() {
    Map<String, String> process = Map.of("LD_LIBRARY_PATH", "/opt/lib", "CUDA_HOME", "", "HOME", "/root");
    Map<String, String> read = Environment.of(List.of("NCCL_EP_HOME", "LD_LIBRARY_PATH", "CUDA_HOME"), process::get);
    assertEquals(Map.of("LD_LIBRARY_PATH", "/opt/lib", "CUDA_HOME", ""), read);
    // by name, whatever order the names came in: a report lists them alike on every run
    assertEquals(List.of("CUDA_HOME", "LD_LIBRARY_PATH"), List.copyOf(read.keySet()));
  }
}
