package dev.headroom.probe;

import com.sun.management.GarbageCollectionNotificationInfo;
import com.sun.management.OperatingSystemMXBean;
import dev.headroom.model.ClientHealth;
import dev.headroom.model.Distribution;
import java.lang.management.GarbageCollectorMXBean;
import java.lang.management.ManagementFactory;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.DoubleAdder;
import javax.management.ListenerNotFoundException;
import javax.management.NotificationEmitter;
import javax.management.NotificationListener;
import javax.management.openmbean.CompositeData;
import org.HdrHistogram.Histogram;

/**
 * Watches the client's own health during a run: process CPU (sampled every 250 ms), GC pauses (JMX notifications),
 * and the scheduling delay of a 1-ms ticker on the virtual-thread scheduler that reads the responses (how late a
 * timestamp may be taken). The probe uses it to say when the client, not the server, may have been the bottleneck.
 */
final class ClientMonitor implements AutoCloseable {
    private final OperatingSystemMXBean os = (OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean();
    private final List<Registration> registrations = new ArrayList<>();
    private final AtomicLong maxPauseMicros = new AtomicLong();
    private final DoubleAdder cpuSum = new DoubleAdder();
    private final AtomicLong cpuSamples = new AtomicLong();
    private volatile double cpuMax;
    private final Thread sampler;
    private final Thread ticker;
    /** How late the ticker woke, µs. */
    private final Histogram schedulingDelay = new Histogram(TimeUnit.HOURS.toMicros(1), 2);

    private volatile boolean stopped;

    private record Registration(NotificationEmitter emitter, NotificationListener listener) {}

    ClientMonitor() {
        for (GarbageCollectorMXBean gc : ManagementFactory.getGarbageCollectorMXBeans()) {
            if (!(gc instanceof NotificationEmitter emitter)) continue;
            NotificationListener l = (n, handback) -> {
                if (!n.getType().equals(GarbageCollectionNotificationInfo.GARBAGE_COLLECTION_NOTIFICATION)) return;
                var info = GarbageCollectionNotificationInfo.from((CompositeData) n.getUserData());
                // Concurrent collectors report their concurrent phases too; only pauses stop the client.
                if (info.getGcName().contains("Pauses")
                        || !info.getGcName().startsWith("ZGC")
                                && !info.getGcAction().contains("concurrent")) {
                    maxPauseMicros.accumulateAndGet(info.getGcInfo().getDuration() * 1000, Math::max);
                }
            };
            emitter.addNotificationListener(l, null, null);
            registrations.add(new Registration(emitter, l));
        }
        sampler = Thread.ofPlatform().daemon(true).name("client-monitor").start(this::sample);
        ticker = Thread.ofVirtual().name("client-ticker").start(this::tick);
    }

    private static final Duration TICK = Duration.ofMillis(1);

    /** Sleeps one {@link #TICK} again and again, recording how much later than asked it wakes. */
    private void tick() {
        // The real clock, not the run's Ticker: this measures how late the real JVM's scheduler wakes a thread.
        long tickMicros = TICK.toNanos() / 1000;
        while (!stopped) {
            long before = System.nanoTime();
            try {
                Thread.sleep(TICK);
            } catch (InterruptedException e) {
                return;
            }
            long late = (System.nanoTime() - before) / 1000 - tickMicros;
            synchronized (schedulingDelay) {
                schedulingDelay.recordValue(Math.clamp(late, 0, schedulingDelay.getHighestTrackableValue()));
            }
        }
    }

    /**
     * Forgets what was observed so far: the run's warm-up (the preflight, the JIT compiling the client's code) is
     * excluded from the client's health as from every metric.
     */
    void restart() {
        synchronized (schedulingDelay) {
            schedulingDelay.reset();
        }
        cpuSum.reset();
        cpuSamples.set(0);
        cpuMax = 0;
        maxPauseMicros.set(0);
    }

    /** What was observed since the start or the last {@link #restart}: scheduling delay (ms), CPU, longest GC pause. */
    ClientHealth.Observed observed() {
        Distribution sched;
        synchronized (schedulingDelay) {
            sched = Distribution.of(schedulingDelay, 1e-3);
        }
        return new ClientHealth.Observed(sched, cpuMean(), cpuMax, gcPauseMaxMs());
    }

    private void sample() {
        os.getProcessCpuLoad(); // the first reading is meaningless
        while (!stopped) {
            try {
                Thread.sleep(250);
            } catch (InterruptedException e) {
                return;
            }
            double load = os.getProcessCpuLoad();
            if (load >= 0) {
                cpuSum.add(load);
                cpuSamples.incrementAndGet();
                cpuMax = Math.max(cpuMax, load);
            }
        }
    }

    /** Mean process CPU over the run, as a fraction of all cores (0..1), or NaN when unknown. */
    private double cpuMean() {
        long n = cpuSamples.get();
        return n == 0 ? Double.NaN : cpuSum.sum() / n;
    }

    private double gcPauseMaxMs() {
        return maxPauseMicros.get() / 1000.0;
    }

    @Override
    public void close() {
        stopped = true;
        sampler.interrupt();
        ticker.interrupt();
        for (Registration r : registrations) {
            try {
                r.emitter().removeNotificationListener(r.listener());
            } catch (ListenerNotFoundException e) {
                // already gone
            }
        }
    }
}
