package com.llmserve.app.system;

import jakarta.servlet.ServletRequest;
import jakarta.servlet.ServletRequestWrapper;
import jakarta.servlet.http.HttpServletRequest;
import java.io.IOException;
import java.io.OutputStream;
import java.lang.reflect.Field;
import org.apache.catalina.connector.RequestFacade;
import org.apache.coyote.ActionCode;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Tells whether the client of a request has closed or reset its connection, without writing to
 * it: a non-streaming answer writes nothing for as long as the model works, and Tomcat notices a
 * departed client only when a write fails (the first write after a normal close even succeeds).
 * The probe asks Tomcat's connector for a non-blocking read past the request's body: end of stream
 * or an error there means the client has gone. Data there would be a request the client sent ahead
 * (HTTP pipelining): the first read buffers it and a second finds nothing new, so only two reads
 * that both find something count (untested: no client in use pipelines). The connector is
 * reached through its request facade, so this is Tomcat's alone; on another container, or if
 * Tomcat changes, the probe says "still there" and departures are noticed by writing, as before.
 */
public final class ClientConnection {

    private static final Logger LOG = LoggerFactory.getLogger(ClientConnection.class);
    private static final Field FACADE_REQUEST = facadeRequest();

    private final org.apache.coyote.Request coyote;

    private ClientConnection(org.apache.coyote.Request coyote) {
        this.coyote = coyote;
    }

    /** The connection of {@code request}, whose body the caller has read. */
    public static ClientConnection of(HttpServletRequest request) {
        org.apache.coyote.Request coyote = coyoteRequest(request);
        if (coyote != null) {
            drainBody(request);
        }
        return new ClientConnection(coyote);
    }

    /** Whether the client has gone: false while it is there, and whenever it cannot be told. */
    public boolean gone() {
        if (coyote == null) {
            return false;
        }
        try {
            return endOrError() && endOrError();
        } catch (RuntimeException e) {
            LOG.debug("Connection probe failed; departures are noticed by writing", e);
            return false;
        }
    }

    /** One non-blocking read past the body: anything to read (end of stream and errors count as 1). */
    private boolean endOrError() {
        coyote.action(ActionCode.AVAILABLE, Boolean.TRUE);
        return coyote.getAvailable() > 0;
    }

    /** Bytes of the body the parser left unread would look like data past it. */
    private static void drainBody(HttpServletRequest request) {
        try {
            request.getInputStream().transferTo(OutputStream.nullOutputStream());
        } catch (IOException | IllegalStateException e) {
            LOG.debug("Could not read the rest of the request body", e);
        }
    }

    private static org.apache.coyote.Request coyoteRequest(ServletRequest request) {
        ServletRequest r = request;
        while (r instanceof ServletRequestWrapper w) {
            r = w.getRequest();
        }
        if (FACADE_REQUEST == null || !(r instanceof RequestFacade facade)) {
            return null;
        }
        try {
            org.apache.catalina.connector.Request connector =
                    (org.apache.catalina.connector.Request) FACADE_REQUEST.get(facade);
            return connector == null ? null : connector.getCoyoteRequest();
        } catch (IllegalAccessException | RuntimeException e) {
            return null;
        }
    }

    private static Field facadeRequest() {
        try {
            Field f = RequestFacade.class.getDeclaredField("request");
            f.setAccessible(true);
            return f;
        } catch (NoSuchFieldException | RuntimeException e) {
            LOG.info("Tomcat's request facade has no request field; a client that leaves is noticed by writing only");
            return null;
        }
    }
}
