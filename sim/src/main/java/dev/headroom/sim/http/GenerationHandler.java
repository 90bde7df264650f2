package dev.headroom.sim.http;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpHandler;
import dev.headroom.sim.Fault;
import dev.headroom.sim.PseudoTokenizer;
import dev.headroom.sim.TextGenerator;
import dev.headroom.sim.engine.BlockHashes;
import dev.headroom.sim.engine.RealTimeDriver;
import dev.headroom.sim.engine.Sequence;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.util.SplittableRandom;
import java.util.concurrent.locks.LockSupport;

/** {@code POST /v1/chat/completions} and {@code POST /v1/completions}: validate, inject faults, run, stream. */
final class GenerationHandler implements HttpHandler {
    private final boolean chat;
    private final String path;
    private final ServerContext ctx;

    GenerationHandler(boolean chat, ServerContext ctx) {
        this.chat = chat;
        this.path = chat ? "/v1/chat/completions" : "/v1/completions";
        this.ctx = ctx;
    }

    /** Thrown to make the server drop the connection mid-stream without finishing the chunked body. */
    static final class InjectedReset extends RuntimeException {
        InjectedReset() {
            super("injected connection reset", null, false, false);
        }
    }

    @Override
    public void handle(HttpExchange ex) throws IOException {
        boolean reset = false;
        try {
            if (!ex.getRequestURI().getPath().equals(path))
                throw Http.notFound(ex.getRequestURI().getPath());
            if (!ex.getRequestMethod().equals("POST")) throw Http.methodNotAllowed(ex.getRequestMethod(), "POST");
            // A server that closes after streams leaves their requests unread to the end (see Http.readBody).
            byte[] body = Http.readBody(ex, ctx.maxBodyBytes, ctx.behaviour.closeAfterStream());
            GenerationRequest req = ctx.parser.parse(body, chat);
            new Call(ex, req).run();
        } catch (ApiError e) {
            Http.sendError(ex, e);
        } catch (IOException e) {
            // The client went away: nothing to answer.
        } catch (InjectedReset e) {
            // Escaping the handler makes the JDK server close the socket without the final chunk.
            reset = true;
            throw e;
        } finally {
            if (!reset) ex.close();
        }
    }

    /** One request from arrival to its last byte. */
    private final class Call {
        final HttpExchange ex;
        final GenerationRequest req;
        final long number = ctx.requestNumbers.getAndIncrement();
        final long arrival = RealTimeDriver.now();
        final long created = System.currentTimeMillis() / 1000;
        final String id;
        final Fault fault;
        Sequence seq;
        StreamSession session;
        int written;
        int prompt;
        String outcome = "ok";
        boolean recorded;

        Call(HttpExchange ex, GenerationRequest req) {
            this.ex = ex;
            this.req = req;
            this.id = (chat ? "chatcmpl-" : "cmpl-") + Long.toHexString(arrival & 0xFFFFFFFFFFL) + "-" + number;
            this.fault = ctx.faults.draw(number);
            if (fault != null) ctx.faultsInjected.increment();
        }

        void run() throws ApiError, IOException {
            ex.getResponseHeaders().set("X-Request-Id", id);
            if (fault != null) ex.getResponseHeaders().set("X-Headroom-Fault", fault.cliName());
            switch (fault) {
                case HTTP_500 -> throw injected(500, "server_error", "injected fault: internal server error");
                case HTTP_503 -> throw injected(503, "server_error", "injected fault: service unavailable");
                case HTTP_429 -> throw injected(429, "rate_limit_error", "injected fault: too many requests");
                case SLOW_HEADERS -> sleep(ctx.faults.slowHeaders().toMillis());
                case null, default -> {}
            }
            // A request over the context one request gets: refused, or cut to fit, as the imitated server does.
            int context = ctx.engine.requestContext();
            prompt = ctx.engine.overContext().keptPrompt(req.promptTokens(), context);
            int asked = req.maxTokens() != null ? req.maxTokens() : context - prompt;
            int maxTokens = asked < 1 ? -1 : ctx.engine.overContext().allowedOutput(prompt, asked, context);
            if (maxTokens < 1) {
                throw ServerErrors.overContext(ctx.behaviour.imitates(), req.promptTokens(), asked, context);
            }
            int osl = fault == Fault.EMPTY ? 0 : outputLength(maxTokens);
            session = new StreamSession(Thread.currentThread(), osl, ctx.frontEnd);
            if (osl > 0) {
                // The request's own cost before the scheduler sees it: its turn at the front end (tokenisation), then
                // the time into the engine.
                long ready = ctx.frontEnd.request(arrival) + ctx.engine.requestOverheadNanos();
                for (long left; (left = ready - RealTimeDriver.now()) > 0; ) LockSupport.parkNanos(left);
                // The answer's blocks are keyed by the ids of the very text it streams: a next turn resending it hits.
                long id = number;
                BlockHashes.Chain chain = BlockHashes.Chain.of(
                        req.promptIds().length > prompt
                                ? java.util.Arrays.copyOf(req.promptIds(), prompt)
                                : req.promptIds(),
                        ctx.engine.blockSize(),
                        i -> PseudoTokenizer.tokenId(TextGenerator.token(id, i)));
                seq = new Sequence(number, prompt, osl, ready, session, chain);
                if (!ctx.driver.submit(seq)) {
                    ctx.rejectedQueueFull.increment();
                    outcome = "rejected_queue_full";
                    record();
                    throw ServerErrors.overloaded(ctx.behaviour.imitates(), ctx.engine.maxWaiting());
                }
            }
            try {
                if (req.stream()) stream(osl, maxTokens);
                else whole(osl, maxTokens);
            } catch (IOException e) {
                outcome = "client_disconnected";
                throw e;
            } catch (InjectedReset e) {
                outcome = "reset";
                throw e;
            } finally {
                if (seq != null) ctx.driver.abort(seq); // no-op when it already finished
                if (!recorded) record();
            }
        }

        /** Output length: exactly max_tokens with ignore_eos; otherwise where the model "stops" on its own. */
        private int outputLength(int maxTokens) {
            if (req.ignoreEos()) return maxTokens;
            int natural = ctx.engine.eosLength().sample(new SplittableRandom(ctx.engine.seed() * 31 + number));
            return Math.max(1, Math.min(maxTokens, Math.max(req.minTokens(), natural)));
        }

        private void stream(int osl, int maxTokens) throws IOException {
            WireFormat wire = new WireFormat(chat, id, created, ctx.servedModel);
            ex.getResponseHeaders().set("Content-Type", "text/event-stream; charset=utf-8");
            ex.getResponseHeaders().set("Cache-Control", "no-cache");
            ex.sendResponseHeaders(200, 0);
            OutputStream os = ex.getResponseBody();
            int strike = ctx.faults.position(number, osl);
            String finish = osl == maxTokens ? "length" : "stop";
            if (osl == 0) {
                if (chat) os.write(wire.roleEvent());
                os.write(wire.emptyFinishEvent());
                writeTrailer(os, wire, 0);
            }
            // Each event's bytes are built while waiting for its token, so only the write is on the hot path.
            byte[] next = osl > 0 ? event(wire, 0, osl, finish) : null;
            while (written < osl) {
                int available = session.awaitMore(written);
                while (written < available) {
                    if (written == strike && fault != null) {
                        switch (fault) {
                            case RESET -> throw new InjectedReset();
                            case TRUNCATED -> {
                                outcome = "truncated";
                                os.close();
                                return;
                            }
                            case STALL -> {
                                os.flush();
                                sleep(ctx.faults.stall().toMillis());
                            }
                            case MALFORMED -> os.write(wire.malformedEvent());
                            default -> {}
                        }
                    }
                    session.awaitIntended(written);
                    os.write(next);
                    os.flush();
                    markWritten(written);
                    written++;
                    if (written < osl) next = event(wire, written, osl, finish);
                }
            }
            // The trace exists before the client sees the end of the body, so ground truth is never late.
            record();
            os.close();
            countFinish(osl, maxTokens);
        }

        /** The bytes for output token {@code i}: the role event first (chat, like vLLM, with the first token), the
         *  token's event, and after the last token the usage event and [DONE]. */
        private byte[] event(WireFormat wire, int i, int osl, String finish) {
            boolean last = i == osl - 1;
            boolean usageInside =
                    last && req.includeUsage() && ctx.behaviour.usage() == ServerBehaviour.Usage.LAST_CHUNK;
            byte[] token = wire.tokenEvent(
                    TextGenerator.token(number, i), last ? finish : null, usageInside ? usage(osl) : null);
            if (!(i == 0 && chat) && !last) return token;
            var b = new ByteArrayOutputStream(token.length * 2);
            if (i == 0 && chat) b.writeBytes(wire.roleEvent());
            b.writeBytes(token);
            if (last) {
                if (req.includeUsage() && !usageInside) b.writeBytes(wire.usageEvent(usage(osl)));
                b.writeBytes(WireFormat.doneEvent());
            }
            return b.toByteArray();
        }

        /** The usage object: prompt and output tokens, and the prompt tokens the prefix cache served. */
        private String usage(int osl) {
            return WireFormat.usage(prompt, osl, seq == null ? 0 : Math.max(0, seq.cachedTokens()));
        }

        private void writeTrailer(OutputStream os, WireFormat wire, int osl) throws IOException {
            if (req.includeUsage()) os.write(wire.usageEvent(usage(osl)));
            os.write(WireFormat.doneEvent());
        }

        private void whole(int osl, int maxTokens) throws IOException {
            while (written < osl) written = session.awaitMore(written);
            if (osl > 0) session.awaitIntended(osl - 1);
            long now = RealTimeDriver.now();
            for (int i = 0; i < osl; i++) session.writtenNanos[i] = now;
            StringBuilder text = new StringBuilder();
            for (int i = 0; i < osl; i++) text.append(TextGenerator.token(number, i));
            WireFormat wire = new WireFormat(chat, id, created, ctx.servedModel);
            String finish = osl == maxTokens ? "length" : "stop";
            String json = wire.body(text.toString(), finish, usage(osl));
            switch (fault) {
                case RESET -> throw new InjectedReset();
                case STALL -> sleep(ctx.faults.stall().toMillis());
                case MALFORMED -> json = json.substring(0, json.length() / 2) + "\u0000";
                case TRUNCATED -> {
                    outcome = "truncated";
                    json = json.substring(0, json.length() / 2);
                }
                case null, default -> {}
            }
            record(); // before the client can see the body, as in stream()
            Http.sendJson(ex, 200, json);
            countFinish(osl, maxTokens);
        }

        private void markWritten(int index) {
            long now = RealTimeDriver.now();
            session.writtenNanos[index] = now;
            // A stalled stream's lag is the fault's, not the server's.
            if (fault != Fault.STALL) ctx.emitLag.recordValue(Math.max(0, (now - session.intendedNanos[index]) / 1000));
        }

        private void countFinish(int osl, int maxTokens) {
            if (osl == maxTokens) ctx.finishedLength.increment();
            else ctx.finishedStop.increment();
        }

        private ApiError injected(int status, String type, String message) {
            outcome = "fault_http_" + status;
            record();
            return new ApiError(status, type, message, null, "injected_fault");
        }

        private void record() {
            recorded = true;
            int n = Math.min(written, session == null ? 0 : session.writtenNanos.length);
            long[] intended = new long[n];
            long[] actual = new long[n];
            for (int i = 0; i < n; i++) {
                intended[i] = ctx.time.epochMicros(session.intendedNanos[i]);
                actual[i] = ctx.time.epochMicros(session.writtenNanos[i]);
            }
            long end = RealTimeDriver.now();
            ctx.traces.add(new ServerTrace(
                    id,
                    number,
                    path,
                    fault == null ? null : fault.cliName(),
                    outcome,
                    req.promptTokens(),
                    n,
                    seq == null ? 0 : seq.preemptions(),
                    ctx.time.epochMicros(arrival),
                    seq == null ? -1 : ctx.time.epochMicros(seq.firstScheduledNanos()),
                    n == 0 ? -1 : actual[0],
                    ctx.time.epochMicros(end),
                    intended,
                    actual));
        }

        private static void sleep(long millis) {
            try {
                Thread.sleep(millis);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }
}
