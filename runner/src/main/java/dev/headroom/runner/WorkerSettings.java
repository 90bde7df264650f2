package dev.headroom.runner;

import dev.headroom.distributed.Coordinator;
import dev.headroom.distributed.LocalWorkers;
import dev.headroom.distributed.TargetSpec;
import dev.headroom.distributed.Worker;
import dev.headroom.model.BadInputException;
import java.net.URI;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * Which workers share each load point ({@code --workers}, docs/distributed.md): {@code N} worker processes started
 * on this machine for the command, or running workers at these base URLs, which take the run token from
 * {@value Worker#TOKEN_ENV} as this process does.
 *
 * @param local processes to start here (0 when {@code urls} are given)
 * @param urls  running workers' base URLs (empty when {@code local} is given)
 * @param tokenFile the file holding their run token (first line), or null for {@value Worker#TOKEN_ENV}
 */
public record WorkerSettings(int local, List<String> urls, Path tokenFile) {
    /** Most local worker processes: each is a JVM of its own. */
    public static final int MAX_LOCAL = 64;

    public WorkerSettings {
        urls = List.copyOf(urls);
    }

    /**
     * {@code --workers}: a count, or URLs separated by commas; null when not given. {@code tokenFile}
     * ({@code --worker-token-file}) holds the URL workers' token.
     */
    public static WorkerSettings parse(String text, Path tokenFile) {
        if (tokenFile != null && (text == null || text.isBlank())) {
            throw new BadInputException("{worker-token-file} is the token of --workers URL,...: give those too");
        }
        if (text == null || text.isBlank()) return null;
        String t = text.trim();
        if (t.chars().allMatch(Character::isDigit)) {
            int n;
            try {
                n = Integer.parseInt(t);
            } catch (NumberFormatException e) {
                n = -1;
            }
            if (n < 1 || n > MAX_LOCAL) {
                throw new BadInputException("{workers} must be 1 to " + MAX_LOCAL + " local processes, or worker "
                        + "URLs separated by commas; got " + t);
            }
            if (tokenFile != null) {
                throw new BadInputException(
                        "{worker-token-file} is for running workers: local ones get a token " + "of their own");
            }
            return new WorkerSettings(n, List.of(), null);
        }
        List<String> urls = new ArrayList<>();
        for (String u : t.split(",")) {
            String s = u.trim().replaceAll("/+$", "");
            URI uri;
            try {
                uri = URI.create(s);
            } catch (IllegalArgumentException e) {
                uri = null;
            }
            if (uri == null || uri.getHost() == null || !"http".equals(uri.getScheme())) {
                throw new BadInputException("bad {workers} URL '" + s + "': give http://HOST:PORT of a running "
                        + "`headroom worker`, or a number of local processes");
            }
            urls.add(s);
        }
        return new WorkerSettings(0, urls, tokenFile);
    }

    /**
     * A coordinator of these workers sending to {@code target}: local ones started now (and stopped when it is
     * closed); running ones need the run token in {@value Worker#TOKEN_ENV}.
     */
    Coordinator open(TargetSpec target, int sharedPrefixTokens, String salt) {
        if (local > 0) {
            LocalWorkers started = LocalWorkers.start(local);
            return new Coordinator(started.urls(), started.token(), target, sharedPrefixTokens, salt).owning(started);
        }
        String token = Worker.readToken(tokenFile, "--worker-token-file");
        if (token == null || token.length() < 16) {
            throw new BadInputException("{workers} at URLs need the run token the workers were started with in $"
                    + Worker.TOKEN_ENV + " or {worker-token-file} (16 characters or more)");
        }
        return new Coordinator(urls, token, target, sharedPrefixTokens, salt);
    }

    /** How many workers share each point. */
    public int count() {
        return local > 0 ? local : urls.size();
    }
}
