#!/bin/sh
# Runs the CLI jar with the java given ($1, the one running Maven): below Java 22 it must exit 1 naming the Java it
# needs, at 22 or newer print its usage. Either way the ELF inspect command runs from the same jar ($3 a library).
set -u
java=$1 jar=$2 library=$3
major=$("$java" -XshowSettings:properties -version 2>&1 | sed -n 's/^ *java.specification.version = \([0-9]*\).*/\1/p')
out=$("$java" -jar "$jar" --help 2>&1); status=$?
if [ "$major" -lt 22 ]; then
  [ "$status" -eq 1 ] || { echo "java -jar on Java $major exited $status, expected 1: $out" >&2; exit 1; }
  case $out in
    "te-runtime-cli needs Java 22 or newer"*"this is Java $major"*) ;;
    *) echo "java -jar on Java $major did not name the Java it needs: $out" >&2; exit 1 ;;
  esac
else
  [ "$status" -eq 0 ] || { echo "java -jar --help on Java $major exited $status: $out" >&2; exit 1; }
  case $out in
    "Usage: java -jar te-runtime-cli"*) ;;
    *) echo "java -jar --help on Java $major printed no usage: $out" >&2; exit 1 ;;
  esac
fi
out=$("$java" -cp "$jar" dev.tewheel.elf.cli.Inspect "$library" 2>&1) || {
  echo "the ELF inspect command failed from $jar: $out" >&2; exit 1; }
case $out in
  *"soname:"*"libnccl_ep.so.0"*) ;;
  *) echo "the ELF inspect command did not print the SONAME of $library: $out" >&2; exit 1 ;;
esac
echo "check-older-java: Java $major, java -jar $(basename "$jar") --help exited $status as expected; the ELF inspect command ran"
