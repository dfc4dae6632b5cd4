package dev.tewheel.runtime;


/** {@link SearchStep}'s value. Package-private, so its constructor is no part of the API. */
record SearchStepRecord(String source, String value, Outcome outcome, String detail) implements SearchStep {}
