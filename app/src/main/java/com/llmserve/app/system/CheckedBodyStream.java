package com.llmserve.app.system;

import jakarta.servlet.ReadListener;
import jakarta.servlet.ServletInputStream;
import java.io.IOException;

/**
 * A request body that is checked as it is read: each run of bytes passes {@link #check} on its
 * way to the reader, and the end of the body {@link #end}; either fails the read by throwing.
 */
abstract class CheckedBodyStream extends ServletInputStream {

    private final ServletInputStream in;
    private final byte[] one = new byte[1];

    CheckedBodyStream(ServletInputStream in) {
        this.in = in;
    }

    /** Bytes {@code [offset, offset + length)} of {@code bytes} were read. */
    abstract void check(byte[] bytes, int offset, int length) throws IOException;

    /** The body has ended. */
    void end() throws IOException {}

    @Override
    public int read() throws IOException {
        int b = in.read();
        if (b < 0) {
            end();
        } else {
            one[0] = (byte) b;
            check(one, 0, 1);
        }
        return b;
    }

    @Override
    public int read(byte[] buffer, int offset, int length) throws IOException {
        int n = in.read(buffer, offset, length);
        if (n < 0) {
            end();
        } else if (n > 0) {
            check(buffer, offset, n);
        }
        return n;
    }

    @Override
    public boolean isFinished() {
        return in.isFinished();
    }

    @Override
    public boolean isReady() {
        return in.isReady();
    }

    @Override
    public void setReadListener(ReadListener listener) {
        in.setReadListener(listener);
    }
}
