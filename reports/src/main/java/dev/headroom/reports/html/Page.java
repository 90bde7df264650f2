package dev.headroom.reports.html;

import dev.headroom.reports.chart.Chart;
import dev.headroom.reports.chart.Svg;
import java.util.ArrayList;
import java.util.List;

/** One self-contained HTML page: inline CSS, inline SVG charts, tables; no script and nothing from the network. */
final class Page {
    private static final String CSS = """
            body{font-family:system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;margin:24px auto;max-width:1340px;\
color:#222;padding:0 16px}
            h1{font-size:22px;margin:0 0 4px}h2{font-size:17px;margin:28px 0 8px;border-bottom:1px solid #ddd;\
padding-bottom:4px}
            table{border-collapse:collapse;font-size:13px;margin:8px 0}td,th{border:1px solid #ddd;padding:3px 8px;\
text-align:left}
            th{background:#f4f4f4}td.num{text-align:right;font-variant-numeric:tabular-nums}
            .charts{display:flex;flex-wrap:wrap;gap:12px}figure{margin:0;border:1px solid #e3e3e3;padding:6px;\
break-inside:avoid}
            figcaption{font-size:12px;color:#555;max-width:640px}svg.chart{max-width:100%;height:auto;display:block}
            .bad{color:#b00020;font-weight:600}.ok{color:#0a7d32;font-weight:600}.note{font-size:12px;color:#555}
            @media print{body{max-width:none}.charts{display:block}figure{margin-bottom:10px}}
            """;
    private final String title;
    private final StringBuilder body = new StringBuilder();
    private final List<Chart> charts = new ArrayList<>();

    Page(String title) {
        this.title = title;
    }

    Page h2(String text) {
        body.append("<h2>").append(esc(text)).append("</h2>\n");
        return this;
    }

    Page p(String html) {
        body.append("<p>").append(html).append("</p>\n");
        return this;
    }

    /** Key–value header table. */
    Page facts(List<String[]> rows) {
        body.append("<table class=\"facts\">");
        for (String[] r : rows)
            body.append("<tr><th>")
                    .append(esc(r[0]))
                    .append("</th><td>")
                    .append(r[1])
                    .append("</td></tr>");
        body.append("</table>\n");
        return this;
    }

    Page table(List<String> header, List<List<String>> rows) {
        body.append("<table><tr>");
        for (String h : header) body.append("<th>").append(esc(h)).append("</th>");
        body.append("</tr>");
        for (List<String> r : rows) {
            body.append("<tr>");
            for (String c : r) {
                boolean num = c.matches("[-+$]?[0-9][0-9,.]*( ?%|[a-z]*)?( \\[.*])?");
                body.append(num ? "<td class=\"num\">" : "<td>").append(c).append("</td>");
            }
            body.append("</tr>");
        }
        body.append("</table>\n");
        return this;
    }

    /** A row of charts, each with a caption. */
    Page charts(List<Chart> list, List<String> captions) {
        body.append("<div class=\"charts\">");
        for (int i = 0; i < list.size(); i++) {
            charts.add(list.get(i));
            body.append("<figure>")
                    .append(Svg.render(list.get(i)))
                    .append("<figcaption>")
                    .append(esc(captions.get(i)))
                    .append("</figcaption></figure>");
        }
        body.append("</div>\n");
        return this;
    }

    List<Chart> allCharts() {
        return List.copyOf(charts);
    }

    String html() {
        return "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"><title>" + esc(title)
                + "</title>\n<style>" + CSS + "</style></head>\n<body>\n<h1>" + esc(title) + "</h1>\n" + body
                + "</body></html>\n";
    }

    static String esc(String s) {
        return s == null
                ? ""
                : s.replace("&", "&amp;")
                        .replace("<", "&lt;")
                        .replace(">", "&gt;")
                        .replace("\"", "&quot;");
    }
}
