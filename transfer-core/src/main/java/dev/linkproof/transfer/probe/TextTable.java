package dev.linkproof.transfer.probe;

import java.util.ArrayList;
import java.util.List;

/** A left-aligned plain-text table: a header row, then rows, columns padded to their widest cell. */
public final class TextTable {
    private final List<String[]> rows = new ArrayList<>();
    private final int columns;

    public TextTable(String... header) {
        this.columns = header.length;
        rows.add(header.clone());
    }

    public TextTable row(Object... cells) {
        if (cells.length != columns) {
            throw new IllegalArgumentException("row has " + cells.length + " cells, table has " + columns + " columns");
        }
        String[] r = new String[columns];
        for (int i = 0; i < columns; i++) {
            r[i] = cells[i] == null ? "" : cells[i].toString();
        }
        rows.add(r);
        return this;
    }

    public int size() {
        return rows.size() - 1;
    }

    /** The table, each line prefixed with {@code indent} and ending in a newline. */
    public String render(String indent) {
        int[] width = new int[columns];
        for (String[] r : rows) {
            for (int i = 0; i < columns; i++) {
                width[i] = Math.max(width[i], r[i].length());
            }
        }
        StringBuilder sb = new StringBuilder();
        for (String[] r : rows) {
            StringBuilder line = new StringBuilder(indent);
            for (int i = 0; i < columns; i++) {
                line.append(r[i]);
                if (i < columns - 1) {
                    line.append(" ".repeat(width[i] - r[i].length() + 2));
                }
            }
            sb.append(line.toString().stripTrailing()).append('\n');
        }
        return sb.toString();
    }
}
