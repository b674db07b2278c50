/**
 * The export file writer ({@link dev.cadastro.exports.ZipLeadFileWriter}) and its options.
 *
 * <p>Both formats carry every field of the company record in the order of the contract's section
 * 2.1, under the API's names, after a header row. Absent fields are empty cells.
 *
 * <p><b>CSV</b> is written for the spreadsheet our users open it in, Excel or LibreOffice in
 * Portuguese: UTF-8 with a byte-order mark (without it Excel reads the file as Windows-1252), {@code ;}
 * between fields (what a pt-BR spreadsheet expects, since its decimal separator is the comma), CRLF
 * after every row, fields quoted as RFC 4180 says when they hold {@code ;}, {@code "}, CR or LF, with
 * quotes doubled. {@code capital_social} has a decimal comma and no thousands separator ({@code
 * 1234,50}); {@code data_abertura} is {@code dd/mm/yyyy}, which both spreadsheets in pt-BR read as a
 * date.
 *
 * <p>Codes ({@code cnpj}, {@code situacao_cadastral}, {@code cnae}, {@code natureza_juridica}, {@code
 * porte}, {@code cep}, {@code telefone}) must stay text: opened by a double click, a plain {@code 02}
 * becomes the number 2 and a CNPJ becomes {@code 1,23457E+13}, and neither spreadsheet lets the user
 * undo that. We write each code as a formula that yields the text, {@code ="02"} (quoted for the CSV as
 * {@code "=""02"""}). Both spreadsheets evaluate it on opening and show {@code 02} as text; it is the
 * one encoding that survives a double click in both. The alternatives lose: a leading apostrophe is
 * shown as part of the value on CSV import, and a leading tab or space is either trimmed (and the zero
 * lost) or kept inside the value. The wrapper is applied only to code values made of letters, digits,
 * space and {@code ( ) . / -}, so the formula can only ever be a string constant; any other code value
 * is written as plain text under the rule below. A program reading the CSV strips {@code =""} and
 * {@code ""} around those cells (see {@code docs/mailing.md}).
 *
 * <p>Against CSV formula injection (OWASP "CSV Injection"), a text value that begins with {@code =},
 * {@code +}, {@code -}, {@code @}, a tab, a carriage return or an apostrophe is written with one
 * apostrophe in front, so no spreadsheet takes a company name such as {@code =HYPERLINK(...)} for a
 * formula. The apostrophe shows in the cell: the value is visibly defused rather than silently
 * changed. Because a value that already begins with an apostrophe gets one more, the rule is
 * reversible: a reader drops one leading apostrophe.
 *
 * <p><b>XLSX</b> is streamed through fastexcel: one sheet, a bold header row that stays frozen,
 * codes and names as inline text cells (never formulas, so nothing there can be injected and nothing
 * needs escaping beyond XML's own), {@code capital_social} a number shown with two decimals, {@code
 * data_abertura} a date cell shown as {@code dd/mm/yyyy}, column widths fixed per column. Inline
 * strings rather than the shared-string table keep the writer's memory flat whatever the row count.
 */
package dev.cadastro.exports;
