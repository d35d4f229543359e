package dev.gatlingllm.internal.logging;

/**
 * Marks an exception that says a problem the user can fix (a dataset that cannot be read, a
 * hub download refused), so that a crash report gives its one line and not a crash
 * ({@link CrashReport}). The packages that throw them implement it; this package names none
 * of them.
 */
public interface UsersProblem {
}
