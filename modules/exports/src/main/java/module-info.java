/**
 * The files of a mailing export: {@link dev.cadastro.exports.ZipLeadFileWriter} implements the core's
 * {@code LeadFileWriter} port, writing one ZIP that holds one CSV (for Excel and LibreOffice in
 * Portuguese) or one XLSX (through the streaming writer fastexcel), a record at a time, so that no
 * export is held in memory whatever its size.
 */
module dev.cadastro.exports {
    requires transitive dev.cadastro.core;
    requires org.dhatim.fastexcel;

    exports dev.cadastro.exports;
}
