package dev.tewheel.runtime;


/** {@link EnvironmentSetting}'s value. Package-private, so its constructor is no part of the API. */
record EnvironmentSettingRecord(String name, String value, boolean setByRuntime, String proposed)
    implements EnvironmentSetting {
  @Override
  public String toString() {
    return setByRuntime ? name + "=" + value + " (set by te-runtime)"
        : name + "=" + value + " (already set" + (value.equals(proposed) ? "" : "; te-runtime would have set "
            + proposed) + ")";
  }
}
