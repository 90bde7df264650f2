package dev.headroom.model;

/**
 * Where a request sits in a session: which conversation, which turn, and which of the turn's calls.
 *
 * @param session      the session's number in the run, from 0
 * @param turn         the turn's index in its session, from 0
 * @param call         0 for the turn's own request; 1..M for its fan-out sub-calls; M+1.. for its tool-call rounds
 * @param droppedTurns earlier turns left out of the history sent, to keep the prompt within the context
 * @param turns        the turns its session has (a replayed conversation has its own number)
 */
public record SessionTurn(long session, int turn, int call, int droppedTurns, int turns) {
    public SessionTurn {
        if (session < 0 || turn < 0 || call < 0 || droppedTurns < 0 || turns <= turn) {
            throw new IllegalArgumentException("a session turn's numbers are >= 0, its turn below its turns");
        }
    }

    /** The turn's own request (not a sub-call or a tool round). */
    public boolean main() {
        return call == 0;
    }
}
