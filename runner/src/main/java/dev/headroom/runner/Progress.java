package dev.headroom.runner;

import dev.headroom.model.RequestRecord;
import java.io.PrintWriter;
import java.util.Locale;
import java.util.concurrent.atomic.LongAdder;

/**
 * Progress while a load point runs, on standard error: a line rewritten in place on a terminal, a plain line
 * every 10 s otherwise (so logs stay readable).
 */
public final class Progress implements AutoCloseable {
    private final PrintWriter err;
    private final boolean terminal = System.console() != null;
    private final long start = System.nanoTime();
    private final LongAdder completed = new LongAdder();
    private final LongAdder failed = new LongAdder();
    private final String label;
    private final Thread thread;
    private volatile boolean stopped;

    public Progress(PrintWriter err, String label) {
        this.err = err;
        this.label = label;
        this.thread = Thread.ofPlatform().daemon(true).name("progress").start(this::loop);
    }

    public void record(RequestRecord r) {
        if (r.failed()) failed.increment();
        else completed.increment();
    }

    private void loop() {
        long interval = terminal ? 500 : 10_000;
        while (!stopped) {
            try {
                Thread.sleep(interval);
            } catch (InterruptedException e) {
                return;
            }
            String line = String.format(
                    Locale.ROOT,
                    "%s  %5.0f s  %d done  %d failed",
                    label,
                    (System.nanoTime() - start) / 1e9,
                    completed.sum(),
                    failed.sum());
            if (terminal) err.print("\r" + line + "   ");
            else err.println(line);
            err.flush();
        }
    }

    @Override
    public void close() {
        stopped = true;
        thread.interrupt();
        if (terminal) {
            err.print("\r" + " ".repeat(70) + "\r");
            err.flush();
        }
    }
}
