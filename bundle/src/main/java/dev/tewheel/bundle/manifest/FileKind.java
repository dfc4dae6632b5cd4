package dev.tewheel.bundle.manifest;

import dev.tewheel.bundle.layout.WheelLibPaths;
import java.util.Arrays;

/** What a file in wheel_lib is, by the name the manifest gives it. */
public enum FileKind {
  TRANSFORMER_ENGINE_LIBRARY("transformer_engine"),
  NCCL_EP_LIBRARY("nccl_ep"),
  HEADER("header");

  private final String id;

  FileKind(String id) {
    this.id = id;
  }

  public String id() {
    return id;
  }

  public static FileKind of(String id) {
    for (FileKind kind : values()) {
      if (kind.id.equals(id)) {
        return kind;
      }
    }
    throw new IllegalArgumentException("unknown file kind " + WheelLibPaths.quoted(id) + ": expected one of "
        + Arrays.stream(values()).map(FileKind::id).toList());
  }
}
