package dev.headroom.probe;

import java.io.IOException;
import java.net.InetAddress;
import java.net.Socket;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import java.time.Duration;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLSocketFactory;
import javax.net.ssl.TrustManager;
import javax.net.ssl.TrustManagerFactory;
import javax.net.ssl.X509TrustManager;

/**
 * TLS sockets whose handshake may wait at most the connect timeout. The load client has no read timeout (the run's
 * watchdog times each request), so a port that takes the connection and never answers the handshake — https to a
 * server that speaks plain HTTP and waits for a request line — would hold every request until its first-token timeout.
 * OkHttp sets the exchange's own read timeout on the socket once the handshake is done, so only the handshake is bound.
 */
final class HandshakeTimeoutSocketFactory extends SSLSocketFactory {
    private final SSLSocketFactory delegate;
    private final int timeoutMillis;

    HandshakeTimeoutSocketFactory(SSLSocketFactory delegate, Duration handshake) {
        this.delegate = delegate;
        this.timeoutMillis = (int) Math.clamp(handshake.toMillis(), 1, Integer.MAX_VALUE);
    }

    /** The platform's default trust, as OkHttp would use it. */
    static X509TrustManager systemTrust() {
        try {
            TrustManagerFactory f = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
            f.init((KeyStore) null);
            for (TrustManager t : f.getTrustManagers()) if (t instanceof X509TrustManager x) return x;
            throw new IllegalStateException("the platform has no X.509 trust manager");
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("cannot read the platform's trusted certificates", e);
        }
    }

    /** An SSL context trusting what {@code trust} trusts. */
    static SSLSocketFactory socketsTrusting(X509TrustManager trust) {
        try {
            SSLContext ctx = SSLContext.getInstance("TLS");
            ctx.init(null, new TrustManager[] {trust}, null);
            return ctx.getSocketFactory();
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("cannot set up TLS", e);
        }
    }

    private Socket bound(Socket s) throws IOException {
        s.setSoTimeout(timeoutMillis);
        return s;
    }

    @Override
    public Socket createSocket(Socket s, String host, int port, boolean autoClose) throws IOException {
        return bound(delegate.createSocket(s, host, port, autoClose));
    }

    @Override
    public Socket createSocket() throws IOException {
        return bound(delegate.createSocket());
    }

    @Override
    public Socket createSocket(String host, int port) throws IOException {
        return bound(delegate.createSocket(host, port));
    }

    @Override
    public Socket createSocket(String host, int port, InetAddress localHost, int localPort) throws IOException {
        return bound(delegate.createSocket(host, port, localHost, localPort));
    }

    @Override
    public Socket createSocket(InetAddress host, int port) throws IOException {
        return bound(delegate.createSocket(host, port));
    }

    @Override
    public Socket createSocket(InetAddress address, int port, InetAddress localAddress, int localPort)
            throws IOException {
        return bound(delegate.createSocket(address, port, localAddress, localPort));
    }

    @Override
    public String[] getDefaultCipherSuites() {
        return delegate.getDefaultCipherSuites();
    }

    @Override
    public String[] getSupportedCipherSuites() {
        return delegate.getSupportedCipherSuites();
    }
}
