package dev.headroom.sim.http;

import dev.headroom.sim.FaultPlan;
import dev.headroom.sim.engine.EngineConfig;
import dev.headroom.sim.engine.FrontEnd;
import dev.headroom.sim.engine.RealTimeDriver;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAdder;
import org.HdrHistogram.Histogram;
import org.HdrHistogram.Recorder;

/** What every handler shares: the engine, the parser, faults, traces and the server's own counters. */
final class ServerContext {
    final EngineConfig engine;
    final RealTimeDriver driver;
    final RequestParser parser;
    final FaultPlan faults;
    final TraceStore traces;
    final TimeBase time = new TimeBase();
    final int maxBodyBytes;
    final String servedModel;
    final ServerBehaviour behaviour;
    /** The server's one serving process: it takes each request in and writes each token out, one at a time. */
    final FrontEnd frontEnd;

    final AtomicLong requestNumbers = new AtomicLong();
    final LongAdder finishedLength = new LongAdder();
    final LongAdder finishedStop = new LongAdder();
    final LongAdder rejectedQueueFull = new LongAdder();
    final LongAdder faultsInjected = new LongAdder();
    /** Emit lag (actual - intended write time) of every token, in microseconds; written by all handler threads. */
    final Recorder emitLag = new Recorder(3);

    private final Histogram emitLagTotal = new Histogram(3);

    ServerContext(
            EngineConfig engine,
            RealTimeDriver driver,
            FaultPlan faults,
            TraceStore traces,
            int maxBodyBytes,
            String servedModel,
            ServerBehaviour behaviour) {
        this.engine = engine;
        this.driver = driver;
        this.behaviour = behaviour;
        this.frontEnd = new FrontEnd(engine);
        this.parser = new RequestParser(servedModel, behaviour.chatTemplate());
        this.faults = faults;
        this.traces = traces;
        this.maxBodyBytes = maxBodyBytes;
        this.servedModel = servedModel;
    }

    /** Cumulative emit-lag histogram since start (a copy). */
    synchronized Histogram emitLagSnapshot() {
        emitLagTotal.add(emitLag.getIntervalHistogram());
        return emitLagTotal.copy();
    }
}
