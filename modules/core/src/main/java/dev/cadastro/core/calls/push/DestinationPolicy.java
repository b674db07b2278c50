package dev.cadastro.core.calls.push;

import java.net.Inet4Address;
import java.net.Inet6Address;
import java.net.InetAddress;
import java.net.URI;
import java.net.UnknownHostException;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.Set;

/**
 * Where a push destination may point (checked when the operator sets it and again before every
 * attempt): {@code https} unless plain {@code http} is allowed; and every address the host resolves to
 * must be public unless the operator allowed more. Refused unless allowed: loopback ({@code
 * 127/8}, {@code ::1}) with {@link Builder#allowLoopback}; private ({@code 10/8}, {@code 172.16/12},
 * {@code 192.168/16}, {@code 100.64/10}, {@code fc00::/7}), link-local ({@code 169.254/16}, {@code
 * fe80::/10}), the any-local address, and the special-purpose ranges that are no public host
 * ({@code 0/8}, {@code 192.0.0/24}, the documentation ranges {@code 192.0.2/24}, {@code
 * 198.51.100/24}, {@code 203.0.113/24} and {@code 2001:db8::/32}, the benchmarking {@code 198.18/15},
 * the 6to4 relays {@code 192.88.99/24}, the reserved {@code 240/4} with the broadcast address, the
 * discard prefix {@code 100::/64} and the local NAT64 prefix {@code 64:ff9b:1::/48}) with {@link
 * Builder#allowPrivate} (which allows loopback too). Multicast is never a destination. An IPv6
 * address that carries an IPv4 address is judged as that IPv4 address: IPv4-mapped ({@code
 * ::ffff:0:0/96}), IPv4-compatible ({@code ::/96}), NAT64 ({@code 64:ff9b::/96}), 6to4 ({@code
 * 2002::/16}) and Teredo's client ({@code 2001::/32}).
 *
 * <p>An operator may exempt exact {@code host:port} destinations from the scheme and address checks
 * ({@link Builder#exempt}); the demo exempts its own loopback receiver this way and nothing else.
 *
 * <p>A name is resolved through the injected {@link Resolver} and each of its addresses checked, so a
 * name that resolves to a private address is refused like the address. The HTTP client resolves the
 * name again when it connects: a name whose answers change between the check and the connection (DNS
 * rebinding) is a known gap, narrowed by checking before every attempt (ADR 0025).
 */
public final class DestinationPolicy {

    /**
     * Port: resolves a host name to its addresses. The adapter that sends provides it (the JDK sender's
     * resolves with the system's resolver, as its client does when it connects): the core judges
     * addresses and never asks the network itself.
     */
    @FunctionalInterface
    public interface Resolver {
        List<InetAddress> resolve(String host) throws UnknownHostException;
    }

    private final boolean allowHttp;
    private final boolean allowLoopback;
    private final boolean allowPrivate;
    private final Resolver resolver;
    private final Set<String> exempt;

    private DestinationPolicy(Builder b) {
        this.allowHttp = b.allowHttp;
        this.allowLoopback = b.allowLoopback || b.allowPrivate;
        this.allowPrivate = b.allowPrivate;
        this.resolver = Objects.requireNonNull(
                b.resolver, "resolver: the sending adapter's, e.g. JdkWebhookSender.RESOLVER, or a test's own");
        this.exempt = Set.copyOf(b.exempt);
    }

    /** https only, public addresses only, names resolved by {@code resolver}. */
    public static DestinationPolicy strict(Resolver resolver) {
        return builder().resolver(resolver).build();
    }

    public static Builder builder() {
        return new Builder();
    }

    public boolean allowsHttp() {
        return allowHttp;
    }

    public boolean allowsLoopback() {
        return allowLoopback;
    }

    public boolean allowsPrivate() {
        return allowPrivate;
    }

    /**
     * Checks a destination URL; the addresses it resolved to, all acceptable.
     *
     * @throws DestinationRefusedException naming what was refused and the option that would allow it
     */
    public List<InetAddress> check(URI url) {
        Objects.requireNonNull(url, "url");
        String scheme = url.getScheme() == null ? "" : url.getScheme().toLowerCase(Locale.ROOT);
        boolean exempted = (scheme.equals("http") || scheme.equals("https"))
                && url.getHost() != null
                && exempt.contains(hostAndPort(url));
        if (!exempted && !scheme.equals("https") && !(scheme.equals("http") && allowHttp)) {
            throw new DestinationRefusedException(
                    scheme.equals("http")
                            ? "destination " + origin(url) + " is plain http; https is required unless http is"
                                    + " allowed (--allow-http / --push-allow-http)"
                            : "destination " + origin(url) + " must be an https URL");
        }
        if (url.getRawUserInfo() != null) {
            throw new DestinationRefusedException("destination must not carry user information in its URL");
        }
        if (url.getRawFragment() != null) {
            throw new DestinationRefusedException("destination must not carry a fragment");
        }
        String host = url.getHost();
        if (host == null || host.isEmpty()) {
            throw new DestinationRefusedException("destination " + origin(url) + " has no host");
        }
        if (host.startsWith("[") && host.endsWith("]")) {
            host = host.substring(1, host.length() - 1);
        }
        List<InetAddress> addresses;
        try {
            addresses = resolver.resolve(host);
        } catch (UnknownHostException e) {
            throw new DestinationRefusedException("destination host " + host + " does not resolve");
        }
        if (addresses.isEmpty()) {
            throw new DestinationRefusedException("destination host " + host + " does not resolve");
        }
        for (InetAddress a : addresses) {
            String refused = exempted ? null : refusal(a);
            if (refused != null) {
                throw new DestinationRefusedException(
                        "destination host " + host + " resolves to " + a.getHostAddress() + ", " + refused);
            }
        }
        return addresses;
    }

    /**
     * {@code host:port} of an http or https URL, the host in lower case and without brackets, the port
     * the scheme's default when the URL has none: the key of an exemption.
     */
    public static String hostAndPort(URI url) {
        String host = url.getHost() == null ? "" : url.getHost().toLowerCase(Locale.ROOT);
        if (host.startsWith("[") && host.endsWith("]")) {
            host = host.substring(1, host.length() - 1);
        }
        int port = url.getPort() != -1 ? url.getPort() : "http".equalsIgnoreCase(url.getScheme()) ? 80 : 443;
        return host + ":" + port;
    }

    /**
     * Scheme, host and port of a URL: what a message may name. The path and the query may carry a
     * client's token, and messages reach logs and the operator's terminal.
     */
    static String origin(URI url) {
        String scheme = url.getScheme() == null ? "" : url.getScheme() + "://";
        String host = url.getHost() == null ? "" : url.getHost();
        return scheme + host + (url.getPort() == -1 ? "" : ":" + url.getPort());
    }

    /** Why an address is refused, or null when it is acceptable. */
    private String refusal(InetAddress address) {
        InetAddress a = embedded(address);
        if (a.isMulticastAddress()) {
            return "a multicast address, never a destination";
        }
        if (a.isLoopbackAddress()) {
            return allowLoopback
                    ? null
                    : "a loopback address, refused unless loopback or private addresses are allowed";
        }
        boolean special = a.isAnyLocalAddress()
                || a.isLinkLocalAddress()
                || a.isSiteLocalAddress()
                || carrierGradeNat(a)
                || uniqueLocal(a)
                || specialPurpose(a);
        if (special) {
            return allowPrivate
                    ? null
                    : "a private or link-local address, refused unless private addresses are allowed"
                            + " (--allow-private / --push-allow-private)";
        }
        return null;
    }

    /**
     * The IPv4 address an IPv6 address carries, or the address itself: IPv4-mapped, IPv4-compatible
     * (not {@code ::} or {@code ::1}, which are judged as themselves), the NAT64 well-known prefix
     * (RFC 6052), 6to4 (RFC 3056) and Teredo's client (RFC 4380, stored inverted).
     */
    static InetAddress embedded(InetAddress a) {
        if (!(a instanceof Inet6Address) || a.isLoopbackAddress() || a.isAnyLocalAddress()) {
            return a;
        }
        byte[] b = a.getAddress();
        if (zero(b, 0, 10) && (b[10] & 0xff) == 0xff && (b[11] & 0xff) == 0xff) {
            return v4(b[12], b[13], b[14], b[15]);
        }
        if (zero(b, 0, 12)) {
            return v4(b[12], b[13], b[14], b[15]);
        }
        if (b[0] == 0 && (b[1] & 0xff) == 0x64 && (b[2] & 0xff) == 0xff && (b[3] & 0xff) == 0x9b && zero(b, 4, 12)) {
            return v4(b[12], b[13], b[14], b[15]);
        }
        if ((b[0] & 0xff) == 0x20 && b[1] == 0x02) {
            return v4(b[2], b[3], b[4], b[5]);
        }
        if ((b[0] & 0xff) == 0x20 && b[1] == 0x01 && b[2] == 0 && b[3] == 0) {
            return v4((byte) ~b[12], (byte) ~b[13], (byte) ~b[14], (byte) ~b[15]);
        }
        return a;
    }

    private static boolean zero(byte[] b, int from, int to) {
        for (int i = from; i < to; i++) {
            if (b[i] != 0) {
                return false;
            }
        }
        return true;
    }

    private static InetAddress v4(byte a, byte b, byte c, byte d) {
        try {
            return InetAddress.getByAddress(new byte[] {a, b, c, d});
        } catch (UnknownHostException e) {
            throw new IllegalStateException(e);
        }
    }

    /**
     * IANA special-purpose ranges that are no public host (RFC 6890 and its updates): refused like
     * the private ranges.
     */
    private static boolean specialPurpose(InetAddress a) {
        byte[] b = a.getAddress();
        if (a instanceof Inet4Address) {
            int o0 = b[0] & 0xff;
            int o1 = b[1] & 0xff;
            int o2 = b[2] & 0xff;
            return o0 == 0 // 0.0.0.0/8, "this network"
                    || o0 >= 240 // 240.0.0.0/4 reserved, and 255.255.255.255
                    || (o0 == 192 && o1 == 0 && (o2 == 0 || o2 == 2)) // IETF assignments; TEST-NET-1
                    || (o0 == 192 && o1 == 88 && o2 == 99) // 6to4 relay anycast
                    || (o0 == 198 && (o1 & 0xfe) == 18) // 198.18.0.0/15 benchmarking
                    || (o0 == 198 && o1 == 51 && o2 == 100) // TEST-NET-2
                    || (o0 == 203 && o1 == 0 && o2 == 113); // TEST-NET-3
        }
        int w0 = ((b[0] & 0xff) << 8) | (b[1] & 0xff);
        int w1 = ((b[2] & 0xff) << 8) | (b[3] & 0xff);
        int w2 = ((b[4] & 0xff) << 8) | (b[5] & 0xff);
        return (w0 == 0x2001 && w1 == 0x0db8) // documentation
                || (w0 == 0x0100 && w1 == 0 && w2 == 0 && b[6] == 0 && b[7] == 0) // 100::/64 discard
                || (w0 == 0x0064 && w1 == 0xff9b && w2 == 0x0001); // 64:ff9b:1::/48 local NAT64
    }

    /** 100.64.0.0/10 (RFC 6598), shared address space. */
    private static boolean carrierGradeNat(InetAddress a) {
        if (!(a instanceof Inet4Address)) {
            return false;
        }
        byte[] b = a.getAddress();
        return (b[0] & 0xff) == 100 && (b[1] & 0xc0) == 64;
    }

    /** fc00::/7 (RFC 4193), unique local IPv6. */
    private static boolean uniqueLocal(InetAddress a) {
        return a instanceof Inet6Address && (a.getAddress()[0] & 0xfe) == 0xfc;
    }

    /** A policy under construction. */
    public static final class Builder {
        private boolean allowHttp;
        private boolean allowLoopback;
        private boolean allowPrivate;
        private Resolver resolver;
        private final Set<String> exempt = new HashSet<>();

        private Builder() {}

        /**
         * Exempts destinations, each given as {@code host:port} exactly as {@link #hostAndPort} writes
         * it, from the scheme and address checks: plain http and any address are accepted for those
         * and only those (the demo's own receiver). The user information and fragment rules still
         * apply.
         */
        public Builder exempt(Set<String> hostAndPorts) {
            for (String h : hostAndPorts) {
                if (h.lastIndexOf(':') < 1) {
                    throw new IllegalArgumentException("exemption " + h + " must be host:port");
                }
                exempt.add(h.toLowerCase(Locale.ROOT));
            }
            return this;
        }

        /** Accepts plain {@code http} URLs (tests, the demo, an endpoint on a trusted network). */
        public Builder allowHttp(boolean allow) {
            this.allowHttp = allow;
            return this;
        }

        /** Accepts loopback addresses (the demo's receiver, tests). */
        public Builder allowLoopback(boolean allow) {
            this.allowLoopback = allow;
            return this;
        }

        /** Accepts private, link-local, shared and any-local addresses, and loopback. */
        public Builder allowPrivate(boolean allow) {
            this.allowPrivate = allow;
            return this;
        }

        /** Where names are resolved: required, the sending adapter's in production. */
        public Builder resolver(Resolver resolver) {
            this.resolver = Objects.requireNonNull(resolver, "resolver");
            return this;
        }

        public DestinationPolicy build() {
            return new DestinationPolicy(this);
        }
    }
}
