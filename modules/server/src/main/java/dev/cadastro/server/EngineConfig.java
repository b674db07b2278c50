package dev.cadastro.server;

import dev.cadastro.core.files.FileStore;
import dev.cadastro.files.LocalFolderFileStore;
import dev.cadastro.jetty.RuntimeOptions;
import dev.cadastro.register.publication.FollowOptions;
import dev.cadastro.store.Database;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.file.Path;
import java.time.Clock;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalLong;

/**
 * What a Cadastro serves and where: the register index, the database, the files, the options of the
 * export workers, the providers, the SMS codes and the push deliveries, and, for {@code CadastroServer},
 * its listener. Immutable; built with {@link #builder(Path, Database)}, which checks it when built, and
 * changed with {@link #toBuilder()}.
 */
public final class EngineConfig {
    private final Path index;
    private final Database database;
    private final InetSocketAddress address;
    private final RuntimeOptions runtime;
    private final OptionalLong requestsPerMinute;
    private final Clock clock;
    private final Path files;
    private final Optional<FileStore> fileStore;
    private final MailingOptions mailing;
    private final ProviderOptions providers;
    private final SmsOptions sms;
    private final PushOptions push;
    private final Optional<IndexFollowing> following;

    /** Where a following server's register is published, and how it follows it. */
    public record IndexFollowing(FileStore store, String prefix, FollowOptions options) {
        public IndexFollowing {
            Objects.requireNonNull(store, "store");
            Objects.requireNonNull(prefix, "prefix");
            Objects.requireNonNull(options, "options");
        }
    }

    private EngineConfig(Builder b) {
        this.index = b.index;
        this.database = b.database;
        this.address = b.address;
        this.runtime = b.runtime;
        this.requestsPerMinute = b.requestsPerMinute;
        this.clock = b.clock;
        this.files = b.files != null ? b.files : b.index.toAbsolutePath().resolveSibling("files");
        this.fileStore = Optional.ofNullable(b.fileStore);
        this.mailing = b.mailing;
        this.providers = b.providers;
        this.sms = b.sms != null
                ? b.sms
                : SmsOptions.under(b.index.toAbsolutePath().getParent());
        this.push = b.push;
        this.following = Optional.ofNullable(b.following);
    }

    /**
     * A configuration of the register index root {@code index} and {@code database}, with the defaults:
     * any free port on the loopback address, the runtime's default limits, the contract's 120 requests
     * per minute per key, the system clock, export files and recordings in {@code files} beside the
     * index, the default export workers, the simulated providers, SMS codes simulated with their keys
     * under the index's parent folder, the default push deliveries.
     */
    public static Builder builder(Path index, Database database) {
        return new Builder(index, database);
    }

    /** A builder holding this configuration, to change some of it. */
    public Builder toBuilder() {
        Builder b = new Builder(index, database);
        b.address = address;
        b.runtime = runtime;
        b.requestsPerMinute = requestsPerMinute;
        b.clock = clock;
        b.files = files;
        b.fileStore = fileStore.orElse(null);
        b.mailing = mailing;
        b.providers = providers;
        b.sms = sms;
        b.push = push;
        b.following = following.orElse(null);
        return b;
    }

    /** The register index root; with {@link #following()}, the local cache of the published register. */
    public Path index() {
        return index;
    }

    public Database database() {
        return database;
    }

    /** The company-data listener's address ({@code CadastroServer}; a host's own listeners ignore it). */
    public InetSocketAddress address() {
        return address;
    }

    /** The listeners' runtime and request limits ({@code CadastroServer}; a host enforces its own). */
    public RuntimeOptions runtime() {
        return runtime;
    }

    /** Requests per minute per key; empty for the contract's 120. */
    public OptionalLong requestsPerMinute() {
        return requestsPerMinute;
    }

    public Clock clock() {
        return clock;
    }

    /** The folder of export files and recordings (a local {@link LocalFolderFileStore}), unless {@link #fileStore()}. */
    public Path files() {
        return files;
    }

    /**
     * An open store used instead of the {@link #files()} folder, such as an object store several servers
     * share ({@code --files s3://...}); whoever opened it closes it after the engine.
     */
    public Optional<FileStore> fileStore() {
        return fileStore;
    }

    public MailingOptions mailing() {
        return mailing;
    }

    /** The bureau and the credit bureau, simulated by default. */
    public ProviderOptions providers() {
        return providers;
    }

    /** The SMS provider and the code keys. */
    public SmsOptions sms() {
        return sms;
    }

    public PushOptions push() {
        return push;
    }

    /**
     * When present, {@link #index()} is a cache that follows the register published in a file store (an
     * object store), and the engine is unready until its first generation is open.
     */
    public Optional<IndexFollowing> following() {
        return following;
    }

    @Override
    public String toString() {
        return "EngineConfig[index=" + index + ", address=" + address + ", files="
                + fileStore.map(Object::toString).orElse(files.toString())
                + following.map(f -> ", following " + f.prefix()).orElse("") + "]";
    }

    /** Builds an {@link EngineConfig}; every setter rejects null, {@link #build()} checks the whole. */
    public static final class Builder {
        private final Path index;
        private final Database database;
        private InetSocketAddress address = new InetSocketAddress(InetAddress.getLoopbackAddress(), 0);
        private RuntimeOptions runtime = RuntimeOptions.defaults();
        private OptionalLong requestsPerMinute = OptionalLong.empty();
        private Clock clock = Clock.systemUTC();
        private Path files;
        private FileStore fileStore;
        private MailingOptions mailing = MailingOptions.defaults();
        private ProviderOptions providers = ProviderOptions.simulated();
        private SmsOptions sms;
        private PushOptions push = PushOptions.defaults();
        private IndexFollowing following;

        private Builder(Path index, Database database) {
            this.index = Objects.requireNonNull(index, "index");
            this.database = Objects.requireNonNull(database, "database");
        }

        public Builder address(InetSocketAddress address) {
            this.address = Objects.requireNonNull(address, "address");
            return this;
        }

        public Builder runtime(RuntimeOptions runtime) {
            this.runtime = Objects.requireNonNull(runtime, "runtime");
            return this;
        }

        /** Requests per minute per key, at least 1. */
        public Builder requestsPerMinute(long requestsPerMinute) {
            return requestsPerMinute(OptionalLong.of(requestsPerMinute));
        }

        /** Requests per minute per key, at least 1; empty for the contract's 120. */
        public Builder requestsPerMinute(OptionalLong requestsPerMinute) {
            this.requestsPerMinute = Objects.requireNonNull(requestsPerMinute, "requestsPerMinute");
            return this;
        }

        public Builder clock(Clock clock) {
            this.clock = Objects.requireNonNull(clock, "clock");
            return this;
        }

        /** Export files and recordings in this folder (and no other file store). */
        public Builder files(Path files) {
            this.files = Objects.requireNonNull(files, "files");
            return this;
        }

        /** Export files and recordings in {@code store} (which the caller closes) instead of a folder. */
        public Builder fileStore(FileStore store) {
            this.fileStore = Objects.requireNonNull(store, "store");
            return this;
        }

        public Builder mailing(MailingOptions mailing) {
            this.mailing = Objects.requireNonNull(mailing, "mailing");
            return this;
        }

        public Builder providers(ProviderOptions providers) {
            this.providers = Objects.requireNonNull(providers, "providers");
            return this;
        }

        public Builder sms(SmsOptions sms) {
            this.sms = Objects.requireNonNull(sms, "sms");
            return this;
        }

        public Builder push(PushOptions push) {
            this.push = Objects.requireNonNull(push, "push");
            return this;
        }

        /**
         * Follows the register published under {@code prefix} of {@code store} ({@code load --publish}):
         * the index root becomes the local cache it is downloaded into, verified and opened from.
         */
        public Builder following(FileStore store, String prefix, FollowOptions options) {
            return following(new IndexFollowing(store, prefix, options));
        }

        /** {@link #following(FileStore, String, FollowOptions)}; null serves the index root as it is. */
        public Builder following(IndexFollowing following) {
            this.following = following;
            return this;
        }

        /**
         * @throws IllegalArgumentException when the requests per minute are below 1
         */
        public EngineConfig build() {
            requestsPerMinute.ifPresent(n -> {
                if (n < 1) {
                    throw new IllegalArgumentException("requests per minute " + n + " must be at least 1");
                }
            });
            return new EngineConfig(this);
        }
    }
}
