package io.overseer.launcher;

import java.nio.file.Path;

/** The java binary of the running JVM: children run on the same JDK as the launcher, whatever PATH says. */
final class Java {

    private Java() {
    }

    static String executable() {
        Path bin = Path.of(System.getProperty("java.home"), "bin", "java");
        return bin.toFile().canExecute() ? bin.toString() : "java";
    }
}
