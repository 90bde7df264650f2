package dev.headroom.probe;

import java.io.IOException;
import java.net.InetAddress;
import java.net.Socket;
import java.security.cert.X509Certificate;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import javax.net.SocketFactory;
import javax.net.ssl.SSLSocketFactory;
import javax.net.ssl.X509TrustManager;
import okhttp3.Dispatcher;
import okhttp3.OkHttpClient;

/**
 * Builds the OkHttp client for a load point: dispatcher sized to the load, no silent retries, TCP_NODELAY, and
 * connection events for the tracker. Its connection pool is {@link ConnectionPolicy}'s to set.
 */
final class HttpClients {
    private HttpClients() {}

    /** Most idle connections a load of {@code connections} in flight keeps. */
    static int maxIdle(int connections) {
        return Math.max(8, connections * 2);
    }

    static OkHttpClient forLoad(Target target, int connections, ConnectionTracker tracker) {
        Dispatcher dispatcher = new Dispatcher();
        dispatcher.setMaxRequests(Math.max(64, connections * 2));
        dispatcher.setMaxRequestsPerHost(Math.max(64, connections * 2));
        OkHttpClient.Builder b = new OkHttpClient.Builder()
                .dispatcher(dispatcher)
                .eventListenerFactory(tracker.factory())
                // Every request is sent exactly once: a failed send is measured, not retried.
                .retryOnConnectionFailure(false)
                .followRedirects(false)
                .connectTimeout(target.connectTimeout())
                // Read/call timeouts are enforced per request by the executor's watchdog, which knows whether the
                // first token has arrived; OkHttp's own would not say which one fired.
                .readTimeout(0, TimeUnit.MILLISECONDS)
                .writeTimeout(target.connectTimeout())
                .callTimeout(0, TimeUnit.MILLISECONDS)
                .socketFactory(new NoDelaySocketFactory());
        if (target.insecure()) {
            trustEverything(b, target.connectTimeout());
        } else if ("https".equalsIgnoreCase(target.baseUrl().getScheme())) {
            X509TrustManager trust = SystemTrust.MANAGER;
            b.sslSocketFactory(new HandshakeTimeoutSocketFactory(SystemTrust.SOCKETS, target.connectTimeout()), trust);
        }
        return b.build();
    }

    private static void trustEverything(OkHttpClient.Builder b, Duration handshake) {
        X509TrustManager all = new X509TrustManager() {
            @Override
            public void checkClientTrusted(X509Certificate[] chain, String authType) {}

            @Override
            public void checkServerTrusted(X509Certificate[] chain, String authType) {}

            @Override
            public X509Certificate[] getAcceptedIssuers() {
                return new X509Certificate[0];
            }
        };
        b.sslSocketFactory(
                        new HandshakeTimeoutSocketFactory(
                                HandshakeTimeoutSocketFactory.socketsTrusting(all), handshake),
                        all)
                .hostnameVerifier((host, session) -> true);
    }

    /** The platform's trusted certificates, read once, when the first https target needs them. */
    private static final class SystemTrust {
        static final X509TrustManager MANAGER = HandshakeTimeoutSocketFactory.systemTrust();
        static final SSLSocketFactory SOCKETS = HandshakeTimeoutSocketFactory.socketsTrusting(MANAGER);
    }

    /** Plain sockets with Nagle off: a streamed token must not wait for the next one. */
    private static final class NoDelaySocketFactory extends SocketFactory {
        private final SocketFactory delegate = SocketFactory.getDefault();

        private static Socket noDelay(Socket s) throws IOException {
            s.setTcpNoDelay(true);
            return s;
        }

        @Override
        public Socket createSocket() throws IOException {
            return noDelay(delegate.createSocket());
        }

        @Override
        public Socket createSocket(String h, int p) throws IOException {
            return noDelay(delegate.createSocket(h, p));
        }

        @Override
        public Socket createSocket(String h, int p, InetAddress la, int lp) throws IOException {
            return noDelay(delegate.createSocket(h, p, la, lp));
        }

        @Override
        public Socket createSocket(InetAddress h, int p) throws IOException {
            return noDelay(delegate.createSocket(h, p));
        }

        @Override
        public Socket createSocket(InetAddress h, int p, InetAddress la, int lp) throws IOException {
            return noDelay(delegate.createSocket(h, p, la, lp));
        }
    }
}
