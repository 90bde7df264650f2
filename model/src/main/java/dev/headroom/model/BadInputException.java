package dev.headroom.model;

import java.util.function.UnaryOperator;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Input a user gave — an option's value, a file's content — that cannot be used. Thrown by parsing and validation
 * only; the CLI reports it in one line with exit 2, and treats any other exception as a bug (exit 1).
 *
 * <p>The message names inputs in braces, in the library's words ({@code "{requests} must be >= 0"}); the caller
 * decides how a user spells them (the CLI: as the command's option, {@code --requests}).
 */
public class BadInputException extends IllegalArgumentException {
    private static final Pattern INPUT = Pattern.compile("\\{([a-z][a-z0-9-]*)}");
    private final String template;

    public BadInputException(String template) {
        this(template, null);
    }

    public BadInputException(String template, Throwable cause) {
        super(render(template, UnaryOperator.identity()), cause);
        this.template = template;
    }

    /** The message with every named input spelled as {@code spelling} writes it. */
    public String message(UnaryOperator<String> spelling) {
        return render(template, spelling);
    }

    private static String render(String template, UnaryOperator<String> spelling) {
        Matcher m = INPUT.matcher(template);
        StringBuilder b = new StringBuilder();
        while (m.find()) m.appendReplacement(b, Matcher.quoteReplacement(spelling.apply(m.group(1))));
        return m.appendTail(b).toString();
    }
}
