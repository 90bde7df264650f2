package dev.headroom.reports.chart;

import java.awt.AlphaComposite;
import java.awt.BasicStroke;
import java.awt.Color;
import java.awt.Font;
import java.awt.Graphics2D;
import java.awt.RenderingHints;
import java.awt.geom.AffineTransform;
import java.awt.geom.Ellipse2D;
import java.awt.geom.Line2D;
import java.awt.geom.Path2D;
import java.awt.geom.Rectangle2D;
import java.awt.image.BufferedImage;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import javax.imageio.ImageIO;

/** Renders a chart to a PNG (twice the SVG's pixel size, for slides) with Java2D, headless. */
public final class Png implements Canvas {
    private static final int SCALE = 2;
    private final Graphics2D g;

    private Png(Graphics2D g) {
        this.g = g;
    }

    public static void write(Chart c, Path file) {
        System.setProperty("java.awt.headless", "true");
        BufferedImage img =
                new BufferedImage(Plotter.WIDTH * SCALE, Plotter.MAX_HEIGHT * SCALE, BufferedImage.TYPE_INT_RGB);
        Graphics2D g = img.createGraphics();
        g.setRenderingHint(RenderingHints.KEY_ANTIALIASING, RenderingHints.VALUE_ANTIALIAS_ON);
        g.setRenderingHint(RenderingHints.KEY_TEXT_ANTIALIASING, RenderingHints.VALUE_TEXT_ANTIALIAS_ON);
        g.scale(SCALE, SCALE);
        Layout layout = Plotter.draw(c, new Png(g));
        g.dispose();
        try {
            ImageIO.write(img.getSubimage(0, 0, Plotter.WIDTH * SCALE, layout.height * SCALE), "png", file.toFile());
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write " + file + ": " + e.getMessage(), e);
        }
    }

    private void paint(int rgb, double opacity) {
        g.setColor(new Color(rgb & 0xFFFFFF));
        g.setComposite(AlphaComposite.getInstance(AlphaComposite.SRC_OVER, (float) opacity));
    }

    @Override
    public void line(double x1, double y1, double x2, double y2, int rgb, double width, boolean dashed) {
        paint(rgb, 1);
        g.setStroke(
                dashed
                        ? new BasicStroke(
                                (float) width, BasicStroke.CAP_BUTT, BasicStroke.JOIN_MITER, 10, new float[] {5, 4}, 0)
                        : new BasicStroke((float) width));
        g.draw(new Line2D.Double(x1, y1, x2, y2));
    }

    @Override
    public void polyline(double[] xs, double[] ys, int rgb, double width) {
        if (xs.length == 0) return;
        paint(rgb, 1);
        g.setStroke(new BasicStroke((float) width));
        Path2D.Double p = new Path2D.Double();
        p.moveTo(xs[0], ys[0]);
        for (int i = 1; i < xs.length; i++) p.lineTo(xs[i], ys[i]);
        g.draw(p);
    }

    @Override
    public void polygon(double[] xs, double[] ys, int rgb, double opacity) {
        if (xs.length == 0) return;
        paint(rgb, opacity);
        Path2D.Double p = new Path2D.Double();
        p.moveTo(xs[0], ys[0]);
        for (int i = 1; i < xs.length; i++) p.lineTo(xs[i], ys[i]);
        p.closePath();
        g.fill(p);
    }

    @Override
    public void rect(double x, double y, double w, double h, int rgb, double opacity) {
        paint(rgb, opacity);
        g.fill(new Rectangle2D.Double(x, y, w, h));
    }

    @Override
    public void circle(double x, double y, double r, int rgb) {
        paint(rgb, 1);
        g.fill(new Ellipse2D.Double(x - r, y - r, 2 * r, 2 * r));
    }

    @Override
    public void text(double x, double y, String s, int size, int rgb, int anchor, boolean vertical, String role) {
        paint(rgb, 1);
        g.setFont(new Font(Font.SANS_SERIF, Font.PLAIN, size));
        double w = g.getFontMetrics().stringWidth(s);
        double dx = anchor < 0 ? 0 : anchor == 0 ? -w / 2 : -w;
        if (vertical) {
            AffineTransform old = g.getTransform();
            g.translate(x, y);
            g.rotate(-Math.PI / 2);
            g.drawString(s, (float) dx, 0f);
            g.setTransform(old);
        } else {
            g.drawString(s, (float) (x + dx), (float) y);
        }
    }
}
