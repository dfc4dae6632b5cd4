package dev.tewheel.cli;

/** A command's name, synopsis and one-line summary, given once to its constructor (as a check's ID and title). */
abstract class NamedCommand implements Command {
  private final String name;
  private final String synopsis;
  private final String summary;

  NamedCommand(String name, String synopsis, String summary) {
    this.name = name;
    this.synopsis = synopsis;
    this.summary = summary;
  }

  @Override
  public final String name() {
    return name;
  }

  @Override
  public final String synopsis() {
    return synopsis;
  }

  @Override
  public final String summary() {
    return summary;
  }
}
