package io.overseer.bench;

import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * CPU time a process has used, from /proc/PID/stat: utime + stime (all its threads, live or exited), and for a
 * parent that reaps its children (PostgreSQL's postmaster) cutime + cstime, the time of the children it has
 * waited for. A process that is gone reads as -1. Public for the ceilings' programs, which measure the server too.
 */
public final class ProcessCpu {

    /** Clock ticks per second (sysconf CLK_TCK); 100 on every Linux this runs on, asked once in case it is not. */
    public static final long TICKS_PER_SECOND = clockTicks();

    private ProcessCpu() {
    }

    /** utime + stime (+ cutime + cstime when {@code withReapedChildren}) in ticks, or -1 if the process is gone. */
    public static long ticks(long pid, boolean withReapedChildren) {
        try {
            return parse(Files.readString(Path.of("/proc", Long.toString(pid), "stat")), withReapedChildren);
        } catch (IOException | RuntimeException gone) {
            return -1;
        }
    }

    /** The fields after the command name, which is in parentheses and may itself hold spaces or parentheses. */
    static long parse(String stat, boolean withReapedChildren) {
        String[] f = stat.substring(stat.lastIndexOf(')') + 2).trim().split("\\s+");
        // f[0] is field 3 (state): utime is field 14, stime 15, cutime 16, cstime 17.
        long own = Long.parseLong(f[11]) + Long.parseLong(f[12]);
        return withReapedChildren ? own + Long.parseLong(f[13]) + Long.parseLong(f[14]) : own;
    }

    /**
     * A parent and its live children, whose exited children are counted in the parent's cutime/cstime once
     * reaped: so a backend that ends between two readings is counted in both, once.
     */
    static long treeTicks(long parentPid) {
        long parent = ticks(parentPid, true);
        if (parent < 0) {
            return -1;
        }
        long sum = parent;
        List<Long> children = ProcessHandle.of(parentPid).map(h -> h.children().map(ProcessHandle::pid).toList())
                .orElse(List.of());
        for (long child : children) {
            sum += Math.max(0, ticks(child, true));
        }
        return sum;
    }

    /** One thread's name as the kernel keeps it (15 characters) and its utime + stime. */
    record ThreadTicks(String name, long ticks) {
    }

    /**
     * utime + stime and the name (/proc/PID/task/TID/comm) of each of the process's live threads, by thread id;
     * empty if the process is gone. A thread that ends takes its time with it (the process's own utime + stime
     * keeps it): what the threads read between two readings is a lower bound, the rest is in the process's total.
     */
    static Map<Long, ThreadTicks> threadTicks(long pid) {
        Map<Long, ThreadTicks> ticks = new HashMap<>();
        try (DirectoryStream<Path> tasks = Files.newDirectoryStream(Path.of("/proc", Long.toString(pid), "task"))) {
            for (Path task : tasks) {
                try {
                    String name = Files.readString(task.resolve("comm")).strip();
                    long used = parse(Files.readString(task.resolve("stat")), false);
                    ticks.put(Long.parseLong(task.getFileName().toString()), new ThreadTicks(name, used));
                } catch (IOException | RuntimeException threadGone) {
                    // ended between the listing and the read: not counted
                }
            }
        } catch (IOException | RuntimeException gone) {
            return Map.of();
        }
        return ticks;
    }

    static double millis(long ticks) {
        return ticks * 1000.0 / TICKS_PER_SECOND;
    }

    private static long clockTicks() {
        try {
            Process p = new ProcessBuilder("getconf", "CLK_TCK").redirectErrorStream(true).start();
            String out = new String(p.getInputStream().readAllBytes()).trim();
            p.waitFor();
            return Long.parseLong(out);
        } catch (IOException | RuntimeException e) {
            return 100;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return 100;
        }
    }
}
