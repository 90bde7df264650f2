package dev.headroom.cli;

import dev.headroom.model.BadInputException;
import dev.headroom.model.Slo;
import dev.headroom.model.plan.CatalogOption;
import dev.headroom.model.plan.ConfigureReport;
import dev.headroom.model.plan.PricingTier;
import dev.headroom.probe.WorkloadSpec;
import dev.headroom.reports.ConfigureJson;
import dev.headroom.reports.RunFiles;
import dev.headroom.runner.Configurator;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/** {@code headroom configure}: the cheapest serving configuration per GPU under an SLO, and the Pareto front. */
@Command(
        name = "configure",
        mixinStandardHelpOptions = true,
        versionProvider = Version.class,
        description = "Search GPUs x tensor-parallel sizes x batch caps x token budgets x KV and weight formats on the "
                + "simulator's virtual clock: prune what cannot fit, find each configuration's max rate under the SLO, "
                + "and report the cheapest per GPU, the Pareto front, and a catalog and capacities for plan.")
public final class ConfigureCommand implements Callable<Integer> {
    @Spec
    CommandSpec spec;

    @Mixin
    ConfigOption configFile;

    @Option(names = "--slo", paramLabel = "SLO", required = true)
    List<String> slos;

    @Option(names = "--sim-model", paramLabel = "NAME", defaultValue = "llama-3.1-8b")
    String model;

    @Option(names = "--catalog", paramLabel = "FILE")
    Path catalog;

    @Option(names = "--tp", paramLabel = "N,...", split = ",", defaultValue = "1,2,4,8")
    List<Integer> tp;

    @Option(names = "--max-num-seqs", paramLabel = "N,...", split = ",", defaultValue = "32,64,128,256")
    List<Integer> maxNumSeqs;

    @Option(names = "--max-num-batched-tokens", paramLabel = "N,...", split = ",", defaultValue = "8192")
    List<Integer> maxNumBatchedTokens;

    @Option(names = "--kv-dtype", paramLabel = "auto|bf16|fp8,...", split = ",", defaultValue = "auto")
    List<String> kvDtypes;

    @Option(names = "--weight-dtype", paramLabel = "auto|bf16|fp8|int4,...", split = ",", defaultValue = "auto")
    List<String> weightDtypes;

    @Option(names = "--profile", paramLabel = "FILE")
    List<Path> profiles = List.of();

    @Option(names = "--pricing", paramLabel = "TIER", defaultValue = "on_demand")
    String pricing;

    @Option(names = "--class", paramLabel = "NAME", defaultValue = "configured")
    String workloadClass;

    @Option(names = "--tolerance", paramLabel = "F", defaultValue = "0.05")
    double tolerance;

    @Option(names = "--max-probes", paramLabel = "N", defaultValue = "20")
    int maxProbes;

    @Option(names = "--threads", paramLabel = "N")
    Integer threads;

    @Option(names = "--seed", paramLabel = "N", defaultValue = "42", descriptionKey = "run.seed")
    long seed;

    @Mixin
    WorkloadOptions workload;

    @Mixin
    OutputOptions output;

    @Override
    public Integer call() {
        OutputFormat format = output.format();
        WorkloadSpec work = workload.toSpec();
        if (work.dataset() != null || work.trace() != null) {
            throw new BadInputException("configure runs on the virtual clock from lengths: give {isl} and {osl} (or "
                    + "their distributions), not {dataset} or {trace}");
        }
        List<CatalogOption> gpus = Configurator.catalog(catalog);
        var settings = new Configurator.Spec(
                model,
                work.workload(),
                slos.stream().map(Slo::parse).toList(),
                gpus,
                tp,
                maxNumSeqs,
                maxNumBatchedTokens,
                kvDtypes,
                weightDtypes,
                profiles,
                PricingTier.parse(pricing),
                workloadClass,
                seed,
                threads == null ? Runtime.getRuntime().availableProcessors() : threads,
                tolerance,
                maxProbes);
        output.checkOut();
        PrintWriter err = spec.commandLine().getErr();
        ConfigureReport r = new Configurator(settings).run(line -> {
            err.println(line);
            err.flush();
        });
        Path dir = output.runDirectory("configure");
        String json = ConfigureJson.write(
                r, Version.get(), Instant.now().truncatedTo(ChronoUnit.SECONDS).toString());
        RunFiles.write(dir.resolve("configure.json"), json);
        String csv = ConfigureJson.csv(r);
        RunFiles.write(dir.resolve("configure.csv"), csv);
        RunFiles.write(dir.resolve("catalog.yaml"), ConfigureJson.catalog(r, gpus));
        RunFiles.write(dir.resolve("capacities.yaml"), ConfigureJson.capacities(r));
        PrintWriter out = spec.commandLine().getOut();
        out.print(
                switch (format) {
                    case JSON -> json;
                    case CSV -> csv;
                    case TABLE -> ConfigureJson.table(r);
                });
        out.flush();
        if (format == OutputFormat.TABLE && !r.cheapestPerGpu().isEmpty()) {
            err.println("plan with them: ./headroom plan --forecast FORECAST --catalog " + dir.resolve("catalog.yaml")
                    + " --capacity " + dir.resolve("capacities.yaml") + "  (class " + workloadClass + ")");
        }
        output.finish(dir, err);
        return ExitCodes.OK;
    }
}
