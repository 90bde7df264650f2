package dev.headroom.model;

import java.io.IOException;
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
}
