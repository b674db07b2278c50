package dev.cadastro.exports.internal;

import dev.cadastro.core.register.Empresa;
import java.io.FilterOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.math.BigDecimal;
import java.time.LocalDate;
import java.util.List;
import org.dhatim.fastexcel.Workbook;
import org.dhatim.fastexcel.Worksheet;

/**
 * XLSX rows through fastexcel's streaming writer: one sheet, a bold frozen header, codes and names as
 * inline text cells, the capital a number with two decimals, the opening date a date cell. Rows are
 * handed to the stream every {@value #ROWS_PER_FLUSH} rows, so memory stays flat whatever the count.
 */
public final class XlsxRows implements LeadRows {
    /** The sheet's name. */
    public static final String SHEET = "empresas";
    /** Number format of {@code capital_social}; the spreadsheet shows it with the user's separators. */
    public static final String DECIMAL_FORMAT = "#,##0.00";
    /** Number format of {@code data_abertura}: day first, as in Brazil, whatever the reader's locale. */
    public static final String DATE_FORMAT = "dd/mm/yyyy";

    private static final int ROWS_PER_FLUSH = 1024;
    private static final String APPLICATION = "Cadastro";

    private final List<LeadColumn> columns = LeadColumn.ALL;
    private final Workbook workbook;
    private final Worksheet sheet;
    private final int decimalColumn;
    private final int dateColumn;
    /** The next row to write; row 0 is the header. */
    private int row = 1;
    /** The first row not yet styled and flushed. */
    private int pending = 1;

    /**
     * Starts the workbook on {@code out} with the header row. {@code out} is never closed here: the
     * workbook's own ZIP ends inside the export's entry.
     *
     * @param compressionLevel the workbook's deflate level, 0 to 9
     */
    public XlsxRows(OutputStream out, int compressionLevel) throws IOException {
        workbook = new Workbook(
                new FilterOutputStream(out) {
                    @Override
                    public void write(byte[] b, int off, int len) throws IOException {
                        out.write(b, off, len);
                    }

                    @Override
                    public void close() throws IOException {
                        flush();
                    }
                },
                APPLICATION,
                null);
        workbook.setCompressionLevel(compressionLevel);
        sheet = workbook.newWorksheet(SHEET);
        sheet.freezePane(0, 1);
        int decimal = -1;
        int date = -1;
        for (int c = 0; c < columns.size(); c++) {
            LeadColumn column = columns.get(c);
            sheet.width(c, column.width());
            sheet.inlineString(0, c, column.header());
            switch (column.kind()) {
                case DECIMAL -> decimal = c;
                case DATE -> date = c;
                case TEXT, CODE -> {}
            }
        }
        decimalColumn = decimal;
        dateColumn = date;
        sheet.range(0, 0, 0, columns.size() - 1).style().bold().set();
    }

    @Override
    public void add(Empresa empresa) throws IOException {
        int r = row;
        for (int c = 0; c < columns.size(); c++) {
            LeadColumn column = columns.get(c);
            switch (column.kind()) {
                case TEXT, CODE -> {
                    String text = column.text(empresa);
                    if (text != null && !text.isEmpty()) {
                        sheet.inlineString(r, c, text);
                    }
                }
                case DECIMAL -> {
                    BigDecimal amount = column.decimal(empresa);
                    if (amount != null) {
                        sheet.value(r, c, amount);
                    }
                }
                case DATE -> {
                    LocalDate date = column.date(empresa);
                    if (date != null) {
                        sheet.value(r, c, date);
                    }
                }
            }
        }
        row = r + 1;
        if (row - pending >= ROWS_PER_FLUSH) {
            flushPending();
        }
    }

    @Override
    public void finish() throws IOException {
        flushPending();
        sheet.finish();
        workbook.finish();
    }

    /** Styles the number and date cells of the rows not yet written (one style per block), then writes them. */
    private void flushPending() throws IOException {
        if (row > pending) {
            int last = row - 1;
            sheet.range(pending, decimalColumn, last, decimalColumn)
                    .style()
                    .format(DECIMAL_FORMAT)
                    .set();
            sheet.range(pending, dateColumn, last, dateColumn)
                    .style()
                    .format(DATE_FORMAT)
                    .set();
            pending = row;
        }
        sheet.flush();
    }
}
