# Sourced by the scripts: the JDK the project builds and runs with.
export JAVA_HOME="${LLMSERVE_JAVA_HOME:-/usr/lib/jvm/temurin-25-jdk-amd64}"
export PATH="$JAVA_HOME/bin:$PATH"
if [ ! -x "$JAVA_HOME/bin/java" ]; then
  echo "Java 25 not found at $JAVA_HOME (set LLMSERVE_JAVA_HOME)" >&2
  exit 1
fi
