package com.llmserve.engine.grammar;

/**
 * A JSON Schema that is valid but uses a keyword (or a value of one, such as a {@code format} or a
 * {@code pattern}) that the grammar compiler cannot turn into a grammar. It is refused rather than
 * ignored: ignoring a constraint would let the model produce output the schema rejects.
 */
public final class UnsupportedSchemaException extends GrammarException {

    private final String keyword;
    private final String path;

    public UnsupportedSchemaException(String keyword, String path) {
        this(keyword, path, null);
    }

    /** {@code detail}, when not null, says what about the keyword's value is not supported. */
    public UnsupportedSchemaException(String keyword, String path, String detail) {
        super("unsupported JSON Schema keyword '" + keyword + "' at " + path + (detail == null ? "" : ": " + detail));
        this.keyword = keyword;
        this.path = path;
    }

    /** The keyword, e.g. {@code not}. */
    public String keyword() {
        return keyword;
    }

    /** The JSON pointer of the schema holding the keyword, e.g. {@code #/properties/a}. */
    public String path() {
        return path;
    }
}
