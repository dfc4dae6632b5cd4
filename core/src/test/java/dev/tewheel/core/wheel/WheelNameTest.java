package dev.tewheel.core.wheel;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class WheelNameTest {
  @Test
  void parsesTheFivePartsOfAReleaseWheel() {
    WheelName name = WheelName.parse("transformer_engine_cu12-2.9.0-py3-none-manylinux_2_28_x86_64.whl");
    assertEquals(new WheelName("transformer_engine_cu12", "2.9.0", Optional.empty(), "py3", "none",
        "manylinux_2_28_x86_64"), name);
    assertEquals(List.of("manylinux_2_28_x86_64"), name.platforms());
    assertEquals(List.of("py3-none-manylinux_2_28_x86_64"), name.tags());
    assertEquals("transformer_engine_cu12-2.9.0-py3-none-manylinux_2_28_x86_64.whl", name.fileName());
  }

  @Test
  void parsesABuildTagAndCompressedTagSets() {
    WheelName name = WheelName.parse(
        "transformer_engine-2.9.0+cu12.9-1a-cp311.cp312-abi3-manylinux_2_28_x86_64.manylinux2014_x86_64.whl");
    assertEquals(Optional.of("1a"), name.build());
    assertEquals("2.9.0+cu12.9", name.version());
    assertEquals(List.of("manylinux_2_28_x86_64", "manylinux2014_x86_64"), name.platforms());
    assertEquals(List.of("cp311-abi3-manylinux_2_28_x86_64", "cp311-abi3-manylinux2014_x86_64",
        "cp312-abi3-manylinux_2_28_x86_64", "cp312-abi3-manylinux2014_x86_64"), name.tags());
    assertEquals("transformer_engine-2.9.0+cu12.9-1a-cp311.cp312-abi3-manylinux_2_28_x86_64.manylinux2014_x86_64.whl",
        name.fileName());
  }

  @Test
  void normalizesDistributionsAsFileNamesWriteThem() {
    assertEquals("transformer_engine_cu12", WheelName.normalizeDistribution("transformer-engine.cu12"));
    assertEquals("Transformer_Engine", WheelName.normalizeDistribution("Transformer--_.Engine"));
  }

  @ParameterizedTest
  @CsvSource(delimiter = '|', value = {
      "transformer_engine-2.9.0-py3-none-linux_x86_64.zip | does not end in .whl",
      "transformer-engine-2.9.0-py3-none-linux_x86_64.whl | its version 'engine' is not a version",
      "transformer_engine-2.9.0-py3-linux_x86_64.whl | 4 '-'-separated parts",
      "transformer_engine-2.9.0-a1-py3-none-linux_x86_64.whl | its build tag 'a1' is not a build number",
      "transformer_engine--py3-none-linux_x86_64.whl | part 2 is empty",
      "transformer engine-2.9.0-py3-none-linux_x86_64.whl | its distribution 'transformer engine' is not letters",
      "transformer_engine-2.9.0-1-py3-none-linux-x86_64.whl | 7 '-'-separated parts",
      "transformer_engine-2.9.0-py3-none-linux_x86_64..manylinux1_x86_64.whl | platform tag",
      "transformer_engine-2.9.0-py3-none-.whl | part 5 is empty",
  })
  void refusesBadNamesSayingWhatIsWrong(String fileName, String what) {
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> WheelName.parse(fileName));
    assertTrue(e.getMessage().startsWith("wheel file name '" + fileName + "' is not PEP 427's: "), e.getMessage());
    assertTrue(e.getMessage().contains(what), e.getMessage());
    assertTrue(e.getMessage().endsWith(
        "expected {distribution}-{version}(-{build tag})?-{python tag}-{abi tag}-{platform tag}.whl"), e.getMessage());
  }
}
