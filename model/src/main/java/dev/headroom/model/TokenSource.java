package dev.headroom.model;

import java.util.Locale;

/** Where a realised token count came from, most trustworthy first. */
public enum TokenSource {
    /** The server's {@code usage} block. */
    USAGE,
    /** The simulator's own ground truth (virtual runs). */
    SERVER,
    /** A tokenizer: the server's {@code /tokenize} or a client-side one. */
    TOKENIZER,
    /** Counted content chunks (one token per chunk assumed unless a chunk says otherwise). */
    COUNTED,
    /** The length that was asked for, unverified. */
    REQUESTED;

    public String wireName() {
        return name().toLowerCase(Locale.ROOT);
    }
}
