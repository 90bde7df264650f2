package dev.headroom.model;

import java.io.CharConversionException;
import java.io.IOException;
import java.nio.charset.CharacterCodingException;
import java.nio.file.AccessDeniedException;
import java.nio.file.DirectoryNotEmptyException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.FileSystemException;
import java.nio.file.NoSuchFileException;
import java.nio.file.NotDirectoryException;

/** Why a file could not be used, in words ("no such file"), not the JDK's bare path. */
public final class IoReason {
    private IoReason() {}

    /** The reason of {@code e}: its kind for the JDK's file exceptions, else its message. */
    public static String of(IOException e) {
        return switch (e) {
            case NoSuchFileException x -> "no such file or directory";
            case AccessDeniedException x -> "permission denied";
            case FileAlreadyExistsException x -> "it already exists";
            case NotDirectoryException x -> "not a directory";
            case DirectoryNotEmptyException x -> "the directory is not empty";
            case FileSystemException x when x.getReason() != null -> x.getReason();
            default -> e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage();
        };
    }

    /** What a file whose bytes do not decode is called, wherever one is refused. */
    public static final String NOT_UTF8 = "not a text file (its bytes are not UTF-8)";

    /**
     * Why a text file would not parse as {@code format}, in one line: {@link #NOT_UTF8} when any cause is a decoding
     * error, else "not valid FORMAT: " and the parser's first line without the Java class names in front of it.
     */
    public static String parsing(Throwable e, String format) {
        for (Throwable c = e; c != null; c = c.getCause()) {
            if (c instanceof CharConversionException || c instanceof CharacterCodingException) return NOT_UTF8;
        }
        return "not valid " + format + ": "
                + withoutClassNames(
                        String.valueOf(e.getMessage()).lines().findFirst().orElse(""));
    }

    /** A message without the Java class names put in front of it ("java.net.ConnectException: Failed …"). */
    public static String withoutClassNames(String message) {
        return message == null
                ? ""
                : message.replaceAll("(?:[a-z][\\w$]*\\.)*[A-Z][\\w$]*(?:Exception|Error): ", "")
                        .strip();
    }
}
