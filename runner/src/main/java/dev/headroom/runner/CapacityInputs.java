package dev.headroom.runner;

import dev.headroom.model.BadInputException;
import dev.headroom.model.SearchReport;
import dev.headroom.model.plan.Capacity;
import dev.headroom.optimizer.plan.Capacities;
import dev.headroom.reports.ResultFiles;
import dev.headroom.reports.plan.PlanInputs;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;

/**
 * The {@code --capacity} values: {@code CLASS@OPTION=RESULT} (a search.json, summary.json, sweep.json or its
 * directory, read by {@link ResultFiles} and turned into a capacity by {@link Capacities}) or a capacities YAML file.
 */
public final class CapacityInputs {
    private CapacityInputs() {}

    /** Parses every {@code --capacity} value. */
    public static List<Capacity> parse(List<String> specs) {
        List<Capacity> out = new ArrayList<>();
        for (String spec : specs) {
            int at = spec.indexOf('@'), eq = spec.indexOf('=');
            if (at > 0 && eq > at) {
                String cls = spec.substring(0, at), option = spec.substring(at + 1, eq);
                out.add(fromResult(cls, option, Path.of(spec.substring(eq + 1))));
            } else if (at < 0 && eq < 0 && (spec.endsWith(".yaml") || spec.endsWith(".yml"))) {
                out.addAll(PlanInputs.capacities(Path.of(spec)));
            } else {
                throw new BadInputException("bad --capacity '" + spec + "': give CLASS@OPTION=RESULT (a search.json, "
                        + "summary.json, sweep.json or its directory) or a capacities YAML file");
            }
        }
        for (int i = 0; i < out.size(); i++) {
            for (int j = 0; j < i; j++) {
                if (out.get(i).option().equals(out.get(j).option())
                        && out.get(i).workloadClass().equals(out.get(j).workloadClass())) {
                    throw new BadInputException("--capacity: " + out.get(i).workloadClass() + "@"
                            + out.get(i).option() + " is given twice ("
                            + out.get(j).source() + " and " + out.get(i).source() + ")");
                }
            }
        }
        return out;
    }

    static Capacity fromResult(String cls, String option, Path path) {
        String tag = "--capacity " + cls + "@" + option;
        ResultFiles.Result result;
        try {
            result = ResultFiles.open(
                    path, EnumSet.of(ResultFiles.Kind.SEARCH, ResultFiles.Kind.SWEEP, ResultFiles.Kind.PROBE));
        } catch (BadInputException e) {
            throw new BadInputException(tag + ": " + e.getMessage(), e);
        }
        Path file = result.file();
        String where = tag + "=" + file, source = file.toString();
        return switch (result.kind()) {
            case SEARCH -> {
                SearchReport search = ResultFiles.search(file);
                yield Capacities.fromSearch(cls, option, search, ResultFiles.searchProbes(file, search), source, where);
            }
            case SWEEP ->
                Capacities.fromSweep(
                        cls,
                        option,
                        ResultFiles.sweep(file).points().stream()
                                .map(ResultFiles::point)
                                .toList(),
                        source,
                        where);
            case PROBE -> Capacities.fromProbe(cls, option, ResultFiles.point(ResultFiles.probe(file)), source, where);
            default -> throw new IllegalStateException("not accepted: " + result.kind());
        };
    }
}
