#!/bin/sh
# Runs before maven-toolchains-plugin's select-jdk-toolchain so that a machine without a JDK >= $1 gets an
# error saying what to install, instead of "Cannot find matching toolchain definitions". It looks where the
# plugin's discovery looks (JAVA_HOME, JAVA*_HOME, the usual install folders, ~/.m2/toolchains.xml) and
# reads each JDK's `release` file; the plugin then makes the actual choice.
set -u
required=$1
candidates=""
for var in $(env | sed -n 's/^\(JAVA[A-Z0-9_]*_HOME\)=.*/\1/p'); do
  candidates="$candidates $(printenv "$var")"
done
for dir in /usr/lib/jvm/* /usr/java/* /opt/java/* /opt/jdk* "$HOME"/.sdkman/candidates/java/* "$HOME"/.jdks/* \
    "$HOME"/.gradle/jdks/* /Library/Java/JavaVirtualMachines/*/Contents/Home; do
  candidates="$candidates $dir"
done
if [ -f "$HOME/.m2/toolchains.xml" ]; then
  candidates="$candidates $(sed -n 's|.*<jdkHome>\(.*\)</jdkHome>.*|\1|p' "$HOME/.m2/toolchains.xml")"
fi
for jdk in $candidates; do
  [ -x "$jdk/bin/javac" ] && [ -f "$jdk/release" ] || continue
  major=$(sed -n 's/^JAVA_VERSION="\([0-9]*\).*/\1/p' "$jdk/release")
  [ -n "$major" ] && [ "$major" -ge "$required" ] && exit 0
done
cat >&2 <<MSG
te-runtime is compiled and tested with a JDK $required or newer (java.lang.foreign), and none was found.
Looked in JAVA_HOME, JAVA*_HOME, /usr/lib/jvm, /usr/java, /opt/java, ~/.sdkman, ~/.jdks and ~/.m2/toolchains.xml.
Install one beside the JDK that runs Maven (any vendor, e.g. Eclipse Temurin 25, unpacked under /usr/lib/jvm
or /opt/java); the build finds it by itself. Maven itself may keep running on Java 17.
MSG
exit 1
