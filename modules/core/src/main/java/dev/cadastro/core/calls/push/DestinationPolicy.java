package dev.cadastro.core.calls.push;

import java.net.Inet4Address;
import java.net.Inet6Address;
import java.net.InetAddress;
import java.net.URI;
import java.net.UnknownHostException;
import java.util.List;
import java.util.Locale;
import java.util.Objects;

/**
 * Where a push destination may point (checked when the operator sets it and again before every
 * attempt): {@code https} unless plain {@code http} is allowed; and every address the host resolves to
 * must be public unless the operator allowed more. Refused unless allowed: loopback ({@code
 * 127/8}, {@code ::1}) with {@link Builder#allowLoopback}; private ({@code 10/8}, {@code 172.16/12},
 * {@code 192.168/16}, {@code 100.64/10}, {@code fc00::/7}), link-local ({@code 169.254/16}, {@code
 * fe80::/10}) and the any-local address with {@link Builder#allowPrivate} (which allows loopback too).
 * Multicast is never a destination. IPv4-mapped IPv6 addresses are judged as the IPv4 address.
 *
 * <p>A name is resolved through the injected {@link Resolver} and each of its addresses checked, so a
 * name that resolves to a private address is refused like the address. The HTTP client resolves the
 * name again when it connects: a name whose answers change between the check and the connection (DNS
 * rebinding) is a known gap, narrowed by checking before every attempt (ADR 0025).
 */
public final class DestinationPolicy {

    /** Resolves a host name to its addresses; {@link InetAddress#getAllByName} in production. */
    @FunctionalInterface
    public interface Resolver {
        List<InetAddress> resolve(String host) throws UnknownHostException;

        static Resolver system() {
            return host -> List.of(InetAddress.getAllByName(host));
        }
    }

    private final boolean allowHttp;
    private final boolean allowLoopback;
    private final boolean allowPrivate;
    private final Resolver resolver;

    private DestinationPolicy(Builder b) {
        this.allowHttp = b.allowHttp;
        this.allowLoopback = b.allowLoopback || b.allowPrivate;
        this.allowPrivate = b.allowPrivate;
        this.resolver = Objects.requireNonNull(b.resolver, "resolver");
    }

    /** https only, public addresses only, the system resolver. */
    public static DestinationPolicy strict() {
        return builder().build();
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
        if (!scheme.equals("https") && !(scheme.equals("http") && allowHttp)) {
            throw new DestinationRefusedException(
                    scheme.equals("http")
                            ? "destination " + url + " is plain http; https is required unless http is allowed"
                                    + " (--allow-http / --push-allow-http)"
                            : "destination " + url + " must be an https URL");
        }
        if (url.getRawUserInfo() != null) {
            throw new DestinationRefusedException("destination must not carry user information in its URL");
        }
        if (url.getRawFragment() != null) {
            throw new DestinationRefusedException("destination must not carry a fragment");
        }
        String host = url.getHost();
        if (host == null || host.isEmpty()) {
            throw new DestinationRefusedException("destination " + url + " has no host");
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
            String refused = refusal(a);
            if (refused != null) {
                throw new DestinationRefusedException(
                        "destination host " + host + " resolves to " + a.getHostAddress() + ", " + refused);
            }
        }
        return addresses;
    }

    /** Why an address is refused, or null when it is acceptable. */
    private String refusal(InetAddress address) {
        InetAddress a = unmapped(address);
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
                || uniqueLocal(a);
        if (special) {
            return allowPrivate
                    ? null
                    : "a private or link-local address, refused unless private addresses are allowed"
                            + " (--allow-private / --push-allow-private)";
        }
        return null;
    }

    private static InetAddress unmapped(InetAddress a) {
        if (a instanceof Inet6Address) {
            byte[] b = a.getAddress();
            boolean mapped = true;
            for (int i = 0; i < 10; i++) {
                mapped &= b[i] == 0;
            }
            mapped &= (b[10] & 0xff) == 0xff && (b[11] & 0xff) == 0xff;
            if (mapped) {
                try {
                    return InetAddress.getByAddress(new byte[] {b[12], b[13], b[14], b[15]});
                } catch (UnknownHostException e) {
                    throw new IllegalStateException(e);
                }
            }
        }
        return a;
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
        private Resolver resolver = Resolver.system();

        private Builder() {}

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

        public Builder resolver(Resolver resolver) {
            this.resolver = Objects.requireNonNull(resolver, "resolver");
            return this;
        }

        public DestinationPolicy build() {
            return new DestinationPolicy(this);
        }
    }
}
