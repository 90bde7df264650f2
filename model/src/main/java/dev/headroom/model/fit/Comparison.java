package dev.headroom.model.fit;

/**
 * One observed number beside a model's prediction of it.
 *
 * @param heldOut whether the model was fitted without this observation's source (a cross-validated figure)
 */
public record Comparison(Observation observation, Target target, double predicted, boolean heldOut) {
    /** |predicted / observed − 1|; infinite when nothing was predicted. */
    public double absoluteError() {
        return Double.isNaN(predicted) ? Double.POSITIVE_INFINITY : Math.abs(predicted / target.value() - 1);
    }

    /** predicted / observed − 1: negative when the model is low. */
    public double signedError() {
        return Double.isNaN(predicted) ? Double.NaN : predicted / target.value() - 1;
    }
}
