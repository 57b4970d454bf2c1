package dev.linkproof.reports.results;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;

/**
 * What would stop a file or a folder being created (or written) at a path, found without creating or
 * changing anything, so a run can say so before it starts: the results file and the Allure results
 * folder are both checked this way, each in its own words.
 *
 * @param reason what is in the way
 * @param at     where: the path itself, or the nearest of its parents that exists
 */
public record CreationObstacle(Reason reason, Path at) {
    public enum Reason {
        /** The path exists and is a folder where a file is wanted, or the other way round. */
        WRONG_KIND,
        /** The path, or the folder it would be created in, is not writable here. */
        NOT_WRITABLE,
        /** None of its parents exists. */
        NO_FOLDER,
        /** The nearest of its parents that exists is a file. */
        FILE_IN_THE_WAY
    }

    /** What is in the way of {@code path} as a folder ({@code folder}) or a file; empty when nothing is. */
    public static Optional<CreationObstacle> of(Path path, boolean folder) {
        Path p = path.toAbsolutePath();
        if (Files.exists(p)) {
            if (Files.isDirectory(p) != folder) {
                return Optional.of(new CreationObstacle(Reason.WRONG_KIND, p));
            }
            return Files.isWritable(p) ? Optional.empty() : Optional.of(new CreationObstacle(Reason.NOT_WRITABLE, p));
        }
        Path parent = p.getParent();
        while (parent != null && !Files.exists(parent)) {
            parent = parent.getParent();
        }
        if (parent == null) {
            return Optional.of(new CreationObstacle(Reason.NO_FOLDER, p));
        }
        if (!Files.isDirectory(parent)) {
            return Optional.of(new CreationObstacle(Reason.FILE_IN_THE_WAY, parent));
        }
        return Files.isWritable(parent)
                ? Optional.empty()
                : Optional.of(new CreationObstacle(Reason.NOT_WRITABLE, parent));
    }
}
