// SPDX-License-Identifier: Apache-2.0
// The kafka component's option table (Camel's camel-kafka names and defaults) and their
// mapping onto librdkafka's configuration properties.
#include "kafka_settings.h"

#include <librdkafka/rdkafka.h>

#include <random>

#include <fmt/format.h>

#include <dromedary/core/logging.h>
#include <dromedary/core/message.h>
#include <dromedary/engine/context.h>

namespace dromedary::component::kafka {

namespace {

constexpr const char* kStringDeserializer = "org.apache.kafka.common.serialization.StringDeserializer";
constexpr const char* kStringSerializer = "org.apache.kafka.common.serialization.StringSerializer";

constexpr OptionSpec kOptions[] = {
    // Common.
    {"brokers", OptionType::String, "",
     "The bootstrap brokers, host1:port1,host2:port2 (librdkafka's bootstrap.servers); default: "
     "the property camel.component.kafka.brokers"},
    {"clientId", OptionType::String, "", "The client id sent with every request (client.id)"},
    {"headerFilterStrategy", OptionType::String, "",
     "#name of a bound HeaderFilterStrategy; default: Camel's KafkaHeaderFilterStrategy (no "
     "Camel*, org.apache.camel.* or kafka.* header crosses, either way)"},
    {"reconnectBackoffMaxMs", OptionType::Int, "1000",
     "The longest wait between attempts to reach a broker (reconnect.backoff.max.ms)"},
    {"reconnectBackoffMs", OptionType::Int, "50",
     "The first wait before reconnecting to a broker (reconnect.backoff.ms)"},
    {"shutdownTimeout", OptionType::Int, "30000",
     "Milliseconds a stopping consumer waits for its exchanges in flight before it commits and "
     "leaves the group"},
    {"securityProtocol", OptionType::Enum, "PLAINTEXT", "security.protocol",
     "PLAINTEXT,SSL,SASL_PLAINTEXT,SASL_SSL"},
    {"saslMechanism", OptionType::String, "GSSAPI",
     "sasl.mechanisms: PLAIN, SCRAM-SHA-256, SCRAM-SHA-512, GSSAPI, OAUTHBEARER"},
    {"saslJaasConfig", OptionType::String, "",
     "A JAAS line with username=\"...\" password=\"...\" (PlainLoginModule, "
     "ScramLoginModule): sasl.username and sasl.password"},
    {"saslAuthType", OptionType::Enum, "NONE",
     "Authentication in one option (Camel 4's): PLAIN or SCRAM_SHA_256/512 with saslUsername "
     "and saslPassword, OAUTH (OIDC client credentials), SSL (TLS only); the security protocol "
     "becomes SASL_SSL (SSL for SSL) unless securityProtocol says otherwise",
     "NONE,PLAIN,SCRAM_SHA_256,SCRAM_SHA_512,SSL,OAUTH"},
    {"saslUsername", OptionType::String, "", "The user name for saslAuthType"},
    {"saslPassword", OptionType::String, "", "The password for saslAuthType"},
    {"oauthClientId", OptionType::String, "", "The OAuth client id for saslAuthType=OAUTH"},
    {"oauthClientSecret", OptionType::String, "", "The OAuth client secret"},
    {"oauthTokenEndpointUri", OptionType::String, "", "The OAuth token endpoint"},
    {"oauthScope", OptionType::String, "", "The OAuth scope"},
    {"sslTruststoreLocation", OptionType::String, "",
     "A PEM file of the certificate authorities to trust (ssl.ca.location); JKS is not read"},
    {"sslTruststorePassword", OptionType::String, "",
     "Accepted for Camel's files: a PEM trust file has no password"},
    {"sslTruststoreType", OptionType::Enum, "PEM", "The trust file's type: PEM only", "PEM"},
    {"sslKeystoreLocation", OptionType::String, "",
     "A PKCS#12 (.p12) client certificate and key (ssl.keystore.location)"},
    {"sslKeystorePassword", OptionType::String, "", "ssl.keystore.password"},
    {"sslKeyPassword", OptionType::String, "", "ssl.key.password"},
    {"sslEndpointAlgorithm", OptionType::String, "https",
     "https: the broker's certificate must name its host; empty or none: it need not "
     "(ssl.endpoint.identification.algorithm)"},
    // Consumer.
    {"topicIsPattern", OptionType::Bool, "false",
     "The topic is a regular expression: subscribe to every topic it matches"},
    {"groupId", OptionType::String, "",
     "The consumer group (group.id); default: a random one, with a warning (no committed "
     "offsets to come back to)"},
    {"groupInstanceId", OptionType::String, "",
     "A static member id (group.instance.id): a restart within the session timeout keeps the "
     "partitions"},
    {"consumersCount", OptionType::Int, "1",
     "Consumers of this endpoint, each a member of the group with a thread of its own"},
    {"keyDeserializer", OptionType::String, kStringDeserializer,
     "StringDeserializer (kafka.KEY as text) or ByteArrayDeserializer (as bytes)"},
    {"valueDeserializer", OptionType::String, kStringDeserializer,
     "StringDeserializer (the body as text) or ByteArrayDeserializer (as bytes)"},
    {"fetchMinBytes", OptionType::Int, "1", "fetch.min.bytes"},
    {"fetchMaxBytes", OptionType::Int, "52428800", "fetch.max.bytes"},
    {"fetchWaitMaxMs", OptionType::Int, "500", "fetch.wait.max.ms"},
    {"maxPartitionFetchBytes", OptionType::Int, "1048576", "max.partition.fetch.bytes"},
    {"heartbeatIntervalMs", OptionType::Int, "3000", "heartbeat.interval.ms"},
    {"sessionTimeoutMs", OptionType::Int, "10000",
     "A consumer not heard of for this long leaves the group and its partitions go to the "
     "others (session.timeout.ms)"},
    {"maxPollRecords", OptionType::Int, "500",
     "Records of one partition a consumer runs in a row before it turns to its other "
     "partitions"},
    {"pollTimeoutMs", OptionType::Duration, "5000", "How long one poll waits for records"},
    {"maxPollIntervalMs", OptionType::Duration, "",
     "max.poll.interval.ms: a consumer that does not poll for this long leaves the group"},
    {"autoOffsetReset", OptionType::Enum, "latest",
     "Where a group without a committed offset starts: latest, earliest, or none (fail)",
     "latest,earliest,none"},
    {"partitionAssignor", OptionType::String, "org.apache.kafka.clients.consumer.RangeAssignor",
     "RangeAssignor, RoundRobinAssignor or CooperativeStickyAssignor (Java class or "
     "librdkafka name)"},
    {"consumerRequestTimeoutMs", OptionType::Int, "40000",
     "How long a request to a broker may take (socket.timeout.ms)"},
    {"autoCommitEnable", OptionType::Bool, "true",
     "Commit in the background, every autoCommitIntervalMs, the offsets of the records whose "
     "exchanges have completed; false: only KafkaManualCommit commits"},
    {"autoCommitIntervalMs", OptionType::Int, "5000", "auto.commit.interval.ms"},
    {"autoCommitOnStop", OptionType::Enum, "sync",
     "On stop and when partitions are revoked, commit what has completed: sync, async or none",
     "sync,async,none"},
    {"allowManualCommit", OptionType::Bool, "false",
     "Put a KafkaManualCommit in the header CamelKafkaManualCommit"},
    {"breakOnFirstError", OptionType::Bool, "false",
     "A failed exchange stops its partition: its offset is not committed and the partition "
     "is consumed again from that record; false: the next record goes on"},
    {"seekTo", OptionType::Enum, "",
     "Where each partition starts when first assigned: beginning or end; default: the "
     "committed offset",
     "beginning,end"},
    {"isolationLevel", OptionType::Enum, "read_uncommitted", "isolation.level",
     "read_uncommitted,read_committed"},
    {"checkCrcs", OptionType::Bool, "true", "check.crcs"},
    // Producer.
    {"key", OptionType::String, "", "The record key, unless the header kafka.KEY gives one"},
    {"partitionKey", OptionType::Int, "",
     "The partition to send to, unless the header kafka.PARTITION_KEY gives one; default: "
     "the partitioner's choice"},
    {"partitioner", OptionType::String, "",
     "The partitioner: Java's DefaultPartitioner (murmur2 of the key, the default, so that a "
     "key lands where Java clients put it) or a librdkafka partitioner name"},
    {"keySerializer", OptionType::String, kStringSerializer,
     "StringSerializer or ByteArraySerializer: the key as it is"},
    {"valueSerializer", OptionType::String, kStringSerializer,
     "StringSerializer or ByteArraySerializer: the body as text (maps and lists as JSON) or "
     "as its bytes"},
    {"requestRequiredAcks", OptionType::Enum, "all", "acks", "all,-1,0,1"},
    {"enableIdempotence", OptionType::Bool, "true",
     "enable.idempotence (only with requestRequiredAcks=all unless given)"},
    {"retries", OptionType::Int, "", "retries"},
    {"retryBackoffMs", OptionType::Int, "100", "retry.backoff.ms"},
    {"lingerMs", OptionType::Int, "0", "linger.ms"},
    {"batchSize", OptionType::Int, "16384", "batch.size (bytes)"},
    {"batchWithIndividualHeaders", OptionType::Bool, "false",
     "A list body's maps with 'headers' and 'body' keys become records with their own headers"},
    {"compressionCodec", OptionType::Enum, "none", "compression.codec",
     "none,gzip,snappy,lz4,zstd"},
    {"deliveryTimeoutMs", OptionType::Int, "120000",
     "How long a record may take to be acknowledged, retries included (delivery.timeout.ms)"},
    {"requestTimeoutMs", OptionType::Int, "30000", "request.timeout.ms"},
    {"maxInFlightRequest", OptionType::Int, "5", "max.in.flight.requests.per.connection"},
    {"maxRequestSize", OptionType::Int, "1048576", "message.max.bytes"},
    {"queueBufferingMaxMessages", OptionType::Int, "10000",
     "Records waiting to be sent before a send waits (queue.buffering.max.messages)"},
    {"bufferMemorySize", OptionType::Int, "33554432",
     "Bytes of records waiting to be sent (queue.buffering.max.kbytes)"},
    {"maxBlockMs", OptionType::Int, "60000",
     "How long a send waits for room in a full queue before it fails"},
    {"connectionMaxIdleMs", OptionType::Int, "540000", "connections.max.idle.ms"},
    {"metadataMaxAgeMs", OptionType::Int, "300000", "metadata.max.age.ms"},
    {"receiveBufferBytes", OptionType::Int, "65536", "socket.receive.buffer.bytes"},
    {"sendBufferBytes", OptionType::Int, "131072", "socket.send.buffer.bytes"},
    {"recordMetadata", OptionType::Bool, "true",
     "Set kafka.RECORD_META (topic, partition, offset, timestamp of each record sent)"},
};

// Camel's kafka options this component does not have: refused by name.
constexpr std::string_view kUnsupported[] = {
    "sslContextParameters", "schemaRegistryURL",   "specificAvroReader", "kafkaClientFactory",
    "interceptorClasses",   "offsetRepository",    "workerPool",         "workerPoolCoreSize",
    "workerPoolMaxSize",    "headerSerializer",    "headerDeserializer", "kafkaManualCommitFactory",
    "pollOnError",          "commitTimeoutMs",     "synchronous",        "saslKerberosServiceName",
    "kerberosInitCmd",      "kerberosBeforeReloginMinTime", "kerberosRenewJitter",
    "kerberosRenewWindowFactor", "kerberosPrincipalToLocalRules", "kerberosConfigLocation",
    "sslKeymanagerAlgorithm", "sslTrustmanagerAlgorithm", "sslProvider", "sslProtocol",
    "sslEnabledProtocols",  "sslCipherSuites",     "sslKeystoreType",    "metricReporters",
    "noOfMetricsSample",    "metricsSampleWindowMs", "createConsumerBackoffMaxAttempts",
    "createConsumerBackoffInterval", "subscribeConsumerBackoffMaxAttempts",
    "subscribeConsumerBackoffInterval", "batching", "useIterator"};

constexpr std::string_view kAdditional = "additionalProperties.";

bool startsWithIgnoreCase(std::string_view s, std::string_view prefix) noexcept {
  return s.size() >= prefix.size() && equalsIgnoreCase(s.substr(0, prefix.size()), prefix);
}

std::string_view trim(std::string_view s) noexcept {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) s.remove_prefix(1);
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t')) s.remove_suffix(1);
  return s;
}

std::string toLower(std::string_view s) {
  std::string out(s);
  for (char& c : out) {
    if (c >= 'A' && c <= 'Z') c = static_cast<char>(c - 'A' + 'a');
  }
  return out;
}

std::string_view lastDotted(std::string_view name) noexcept {
  size_t dot = name.rfind('.');
  return dot == std::string_view::npos ? name : name.substr(dot + 1);
}

// Whether a (de)serializer class reads/writes bytes (ByteArray or Bytes) rather than text.
Result<bool> bytesFormat(const Uri& uri, std::string_view option, std::string_view value,
                         std::string_view kind /* "Serializer" or "Deserializer" */) {
  std::string_view name = lastDotted(value);
  if (!name.ends_with(kind)) name = {};
  name.remove_suffix(name.empty() ? 0 : kind.size());
  if (name == "String") return false;
  if (name == "ByteArray" || name == "Bytes") return true;
  return makeError(ErrorCode::InvalidOption,
                   fmt::format("{} '{}' of endpoint '{}': Dromedary reads and writes records as "
                               "text (String{}) or bytes (ByteArray{}); other formats are not "
                               "supported",
                               option, value, uri.text(), kind, kind));
}

Result<std::string> partitionerName(const Uri& uri, std::string_view value) {
  std::string_view name = lastDotted(value);
  if (value.empty() || name == "DefaultPartitioner") return std::string("murmur2_random");
  if (name == "RoundRobinPartitioner" || name == "UniformStickyPartitioner") {
    return std::string("random");
  }
  for (std::string_view librdkafka : {"random", "consistent", "consistent_random", "murmur2",
                                      "murmur2_random", "fnv1a", "fnv1a_random"}) {
    if (value == librdkafka) return std::string(value);
  }
  return makeError(ErrorCode::InvalidOption,
                   fmt::format("partitioner '{}' of endpoint '{}': expected DefaultPartitioner, "
                               "RoundRobinPartitioner or a librdkafka partitioner (murmur2_random, "
                               "consistent_random, random, fnv1a_random ...)",
                               value, uri.text()));
}

Result<std::string> assignorName(const Uri& uri, std::string_view value) {
  std::string out;
  size_t start = 0;
  while (start <= value.size()) {
    size_t comma = value.find(',', start);
    std::string_view one = value.substr(start, comma == std::string_view::npos ? value.npos
                                                                              : comma - start);
    std::string_view name = lastDotted(one);
    std::string_view mapped = name == "RangeAssignor" || name == "range"             ? "range"
                              : name == "RoundRobinAssignor" || name == "roundrobin" ? "roundrobin"
                              : name == "CooperativeStickyAssignor" || name == "cooperative-sticky"
                                  ? "cooperative-sticky"
                                  : "";
    if (mapped.empty()) {
      return makeError(ErrorCode::InvalidOption,
                       fmt::format("partitionAssignor '{}' of endpoint '{}': expected "
                                   "RangeAssignor, RoundRobinAssignor or "
                                   "CooperativeStickyAssignor",
                                   one, uri.text()));
    }
    if (!out.empty()) out += ',';
    out += mapped;
    if (comma == std::string_view::npos) break;
    start = comma + 1;
  }
  return out;
}

// Camel's KafkaHeaderFilterStrategy: the engine's headers and the component's own kafka.*
// ones stay inside, both ways.
std::shared_ptr<const HeaderFilterStrategy> defaultFilter() {
  static const auto strategy = [] {
    auto s = std::make_shared<DefaultHeaderFilterStrategy>();
    auto prefixes = DefaultHeaderFilterStrategy::camelPrefixes();
    prefixes.emplace_back("kafka.");
    s->setInFilterStartsWith(prefixes);
    s->setOutFilterStartsWith(prefixes);
    return s;
  }();
  return strategy;
}

std::string randomGroupId() {
  std::random_device device;
  std::mt19937_64 random(device());
  return fmt::format("dromedary-{:016x}", random());
}

void onLog(const rd_kafka_t*, int level, const char* facility, const char* text) {
  static const Logger log = Logger::get("kafka");
  // librdkafka says ERR (3) for a broker it cannot reach, which it retries: a warning, as
  // the Java client logs it.
  LoggingLevel mapped = level <= 2 ? LoggingLevel::Error
                        : level <= 4 ? LoggingLevel::Warn
                        : level <= 6 ? LoggingLevel::Info
                                     : LoggingLevel::Debug;
  if (log.enabled(mapped)) log.log(mapped, fmt::format("librdkafka {}: {}", facility, text));
}

}  // namespace

std::span<const OptionSpec> kafkaOptions() noexcept { return kOptions; }

void installLogger(rd_kafka_conf_t* conf) noexcept { rd_kafka_conf_set_log_cb(conf, &onLog); }

std::optional<std::pair<std::string, std::string>> jaasCredentials(std::string_view jaas) {
  auto quoted = [&](std::string_view key) -> std::optional<std::string> {
    size_t at = 0;
    while ((at = jaas.find(key, at)) != std::string_view::npos) {
      bool starts_word = at == 0 || jaas[at - 1] == ' ' || jaas[at - 1] == '\t';
      size_t p = at + key.size();
      while (p < jaas.size() && jaas[p] == ' ') ++p;
      if (starts_word && p < jaas.size() && jaas[p] == '=') {
        ++p;
        while (p < jaas.size() && jaas[p] == ' ') ++p;
        if (p < jaas.size() && jaas[p] == '"') {
          size_t end = jaas.find('"', p + 1);
          if (end != std::string_view::npos) return std::string(jaas.substr(p + 1, end - p - 1));
        }
      }
      at += key.size();
    }
    return std::nullopt;
  };
  auto user = quoted("username");
  auto password = quoted("password");
  if (!user && !password) return std::nullopt;
  return std::pair{user.value_or(""), password.value_or("")};
}

Result<rd_kafka_conf_s*> makeConf(const std::string& uri,
                                  std::initializer_list<const Properties*> groups) {
  rd_kafka_conf_t* conf = rd_kafka_conf_new();
  char error[512];
  for (const Properties* group : groups) {
    for (const auto& [name, value] : *group) {
      if (rd_kafka_conf_set(conf, name.c_str(), value.c_str(), error, sizeof error) !=
          RD_KAFKA_CONF_OK) {
        rd_kafka_conf_destroy(conf);
        return makeError(ErrorCode::InvalidOption,
                         fmt::format("endpoint '{}': librdkafka refuses {}={}: {}", uri, name,
                                     value, error));
      }
    }
  }
  return conf;
}

Result<KafkaSettings> kafkaSettings(Context& context, const Uri& uri,
                                    const EndpointOptions& options,
                                    const std::vector<Uri::Option>& extra) {
  KafkaSettings s;
  s.uri = uri.text();
  Properties additional;
  for (const auto& [name, value] : extra) {
    if (name.size() > kAdditional.size() && startsWithIgnoreCase(name, kAdditional)) {
      additional.emplace_back(name.substr(kAdditional.size()), value);
      continue;
    }
    for (std::string_view camel : kUnsupported) {
      if (equalsIgnoreCase(name, camel)) {
        return makeError(ErrorCode::UnknownOption,
                         fmt::format("option '{}' of endpoint '{}' is one of Camel's that "
                                     "Dromedary's kafka component does not have (docs/kafka.md "
                                     "lists those it has)",
                                     name, uri.text()));
      }
    }
    return makeError(ErrorCode::UnknownOption,
                     fmt::format("unknown option '{}' for endpoint '{}'; docs/kafka.md lists the "
                                 "kafka options, and any librdkafka property goes in as "
                                 "additionalProperties.NAME",
                                 name, uri.text()));
  }

  // Topics.
  std::string_view path = uri.path();
  while (!path.empty()) {
    size_t comma = path.find(',');
    std::string_view topic = trim(path.substr(0, comma));
    if (!topic.empty()) s.topics.emplace_back(topic);
    if (comma == std::string_view::npos) break;
    path.remove_prefix(comma + 1);
  }
  if (s.topics.empty()) {
    return makeError(ErrorCode::InvalidUri,
                     fmt::format("endpoint '{}' names no topic: kafka:TOPIC[,TOPIC2]?options",
                                 uri.text()));
  }
  s.topicIsPattern = options.getBool("topicIsPattern");

  auto text = [&](const char* option) -> const std::string& { return options.getString(option); };
  auto number = [&](const char* option) { return std::to_string(options.getInt(option)); };
  auto flag = [&](const char* option) {
    return std::string(options.getBool(option) ? "true" : "false");
  };

  // Common.
  // (camel.component.kafka.brokers was merged into the options by the component.)
  const std::string& brokers = text("brokers");
  if (brokers.empty()) {
    return makeError(ErrorCode::InvalidOption,
                     fmt::format("endpoint '{}' has no brokers: give brokers=host:port or the "
                                 "property camel.component.kafka.brokers",
                                 uri.text()));
  }
  s.common.emplace_back("bootstrap.servers", brokers);
  if (!text("clientId").empty()) s.common.emplace_back("client.id", text("clientId"));
  s.common.emplace_back("reconnect.backoff.max.ms", number("reconnectBackoffMaxMs"));
  s.common.emplace_back("reconnect.backoff.ms", number("reconnectBackoffMs"));
  s.common.emplace_back("socket.timeout.ms", number("consumerRequestTimeoutMs"));
  s.common.emplace_back("connections.max.idle.ms", number("connectionMaxIdleMs"));
  s.common.emplace_back("metadata.max.age.ms", number("metadataMaxAgeMs"));
  s.common.emplace_back("socket.receive.buffer.bytes", number("receiveBufferBytes"));
  s.common.emplace_back("socket.send.buffer.bytes", number("sendBufferBytes"));
  // saslAuthType (Camel 4's one-option form) decides the protocol and mechanism unless the
  // endpoint gives them.
  const std::string& auth = text("saslAuthType");
  std::string protocol = text("securityProtocol");
  std::string mechanism = text("saslMechanism");
  if (auth != "NONE") {
    if (!options.isSet("securityProtocol")) protocol = auth == "SSL" ? "SSL" : "SASL_SSL";
    if (!options.isSet("saslMechanism")) {
      mechanism = auth == "PLAIN"           ? "PLAIN"
                  : auth == "SCRAM_SHA_256" ? "SCRAM-SHA-256"
                  : auth == "SCRAM_SHA_512" ? "SCRAM-SHA-512"
                  : auth == "OAUTH"         ? "OAUTHBEARER"
                                            : mechanism;
    }
    bool needs_user = auth == "PLAIN" || auth.starts_with("SCRAM");
    if (needs_user && (text("saslUsername").empty() || text("saslPassword").empty())) {
      return makeError(ErrorCode::InvalidOption,
                       fmt::format("endpoint '{}': saslAuthType={} needs saslUsername and "
                                   "saslPassword",
                                   uri.text(), auth));
    }
    if (auth == "OAUTH" &&
        (text("oauthClientId").empty() || text("oauthTokenEndpointUri").empty())) {
      return makeError(ErrorCode::InvalidOption,
                       fmt::format("endpoint '{}': saslAuthType=OAUTH needs oauthClientId, "
                                   "oauthClientSecret and oauthTokenEndpointUri",
                                   uri.text()));
    }
  }
  s.common.emplace_back("security.protocol", toLower(protocol));
  if (protocol.starts_with("SASL")) {
    s.common.emplace_back("sasl.mechanisms", mechanism);
    if (!text("saslUsername").empty()) {
      s.common.emplace_back("sasl.username", text("saslUsername"));
      s.common.emplace_back("sasl.password", text("saslPassword"));
    }
    if (auth == "OAUTH") {
      s.common.emplace_back("sasl.oauthbearer.method", "oidc");
      s.common.emplace_back("sasl.oauthbearer.client.id", text("oauthClientId"));
      s.common.emplace_back("sasl.oauthbearer.client.secret", text("oauthClientSecret"));
      s.common.emplace_back("sasl.oauthbearer.token.endpoint.url", text("oauthTokenEndpointUri"));
      if (!text("oauthScope").empty()) {
        s.common.emplace_back("sasl.oauthbearer.scope", text("oauthScope"));
      }
    }
    if (!text("saslJaasConfig").empty()) {
      auto credentials = jaasCredentials(text("saslJaasConfig"));
      if (!credentials) {
        return makeError(ErrorCode::InvalidOption,
                         fmt::format("saslJaasConfig of endpoint '{}' has no username=\"...\" "
                                     "password=\"...\"",
                                     uri.text()));
      }
      s.common.emplace_back("sasl.username", credentials->first);
      s.common.emplace_back("sasl.password", credentials->second);
    }
  }
  if (const std::string& trust = text("sslTruststoreLocation"); !trust.empty()) {
    if (trust.ends_with(".jks")) {
      return makeError(ErrorCode::InvalidOption,
                       fmt::format("sslTruststoreLocation '{}' of endpoint '{}' is a Java key "
                                   "store: give a PEM file of the certificates (keytool "
                                   "-exportcert -rfc)",
                                   trust, uri.text()));
    }
    s.common.emplace_back("ssl.ca.location", trust);
  }
  if (!text("sslKeystoreLocation").empty()) {
    s.common.emplace_back("ssl.keystore.location", text("sslKeystoreLocation"));
    s.common.emplace_back("ssl.keystore.password", text("sslKeystorePassword"));
  }
  if (!text("sslKeyPassword").empty()) s.common.emplace_back("ssl.key.password", text("sslKeyPassword"));
  if (protocol == "SSL" || protocol == "SASL_SSL") {
    const std::string& algorithm = text("sslEndpointAlgorithm");
    s.common.emplace_back("ssl.endpoint.identification.algorithm",
                          algorithm.empty() || equalsIgnoreCase(algorithm, "none") ? "none"
                                                                                         : "https");
  }
  s.shutdownTimeout = std::chrono::milliseconds(options.getInt("shutdownTimeout"));

  // Consumer.
  s.consumersCount = static_cast<int>(options.getInt("consumersCount"));
  s.maxPollRecords = static_cast<int>(options.getInt("maxPollRecords"));
  if (s.consumersCount < 1 || s.maxPollRecords < 1) {
    return makeError(ErrorCode::InvalidOption,
                     fmt::format("endpoint '{}': consumersCount and maxPollRecords must be at "
                                 "least 1",
                                 uri.text()));
  }
  s.pollTimeout = options.getDuration("pollTimeoutMs");
  s.groupId = text("groupId");
  s.consumer.emplace_back("group.id", s.groupId.empty() ? randomGroupId() : s.groupId);
  if (!text("groupInstanceId").empty()) {
    s.consumer.emplace_back("group.instance.id", text("groupInstanceId"));
  }
  const std::string& reset = text("autoOffsetReset");
  s.consumer.emplace_back("auto.offset.reset", reset == "none" ? "error" : reset);
  s.autoCommit = options.getBool("autoCommitEnable");
  s.allowManualCommit = options.getBool("allowManualCommit");
  s.breakOnFirstError = options.getBool("breakOnFirstError");
  // Offsets are stored by the component once an exchange has completed, never by librdkafka
  // when a record is handed out: the background commit takes only completed work.
  s.consumer.emplace_back("enable.auto.commit", s.autoCommit ? "true" : "false");
  s.consumer.emplace_back("enable.auto.offset.store", "false");
  s.consumer.emplace_back("auto.commit.interval.ms", number("autoCommitIntervalMs"));
  const std::string& on_stop = text("autoCommitOnStop");
  s.commitOnStop = on_stop == "async"  ? CommitOnStop::Async
                   : on_stop == "none" ? CommitOnStop::None
                                       : CommitOnStop::Sync;
  const std::string& seek = text("seekTo");
  s.seekTo = seek == "beginning" ? SeekTo::Beginning : seek == "end" ? SeekTo::End : SeekTo::None;
  s.consumer.emplace_back("session.timeout.ms", number("sessionTimeoutMs"));
  s.consumer.emplace_back("heartbeat.interval.ms", number("heartbeatIntervalMs"));
  if (options.isSet("maxPollIntervalMs")) {
    s.consumer.emplace_back("max.poll.interval.ms",
                            std::to_string(options.getDuration("maxPollIntervalMs").count()));
  }
  s.consumer.emplace_back("fetch.min.bytes", number("fetchMinBytes"));
  s.consumer.emplace_back("fetch.max.bytes", number("fetchMaxBytes"));
  s.consumer.emplace_back("fetch.wait.max.ms", number("fetchWaitMaxMs"));
  s.consumer.emplace_back("max.partition.fetch.bytes", number("maxPartitionFetchBytes"));
  s.consumer.emplace_back("isolation.level", text("isolationLevel"));
  s.consumer.emplace_back("check.crcs", flag("checkCrcs"));
  DROMEDARY_TRY(assignor, assignorName(uri, text("partitionAssignor")));
  s.consumer.emplace_back("partition.assignment.strategy", std::move(assignor));
  DROMEDARY_TRY(key_bytes,
                bytesFormat(uri, "keyDeserializer", text("keyDeserializer"), "Deserializer"));
  DROMEDARY_TRY(value_bytes,
                bytesFormat(uri, "valueDeserializer", text("valueDeserializer"), "Deserializer"));
  s.keyBytes = key_bytes;
  s.valueBytes = value_bytes;

  // Producer.
  if (options.isSet("key")) s.key = text("key");
  if (options.isSet("partitionKey")) s.partitionKey = static_cast<int32_t>(options.getInt("partitionKey"));
  s.recordMetadata = options.getBool("recordMetadata");
  s.batchWithIndividualHeaders = options.getBool("batchWithIndividualHeaders");
  s.maxBlock = std::chrono::milliseconds(options.getInt("maxBlockMs"));
  DROMEDARY_TRY(partitioner, partitionerName(uri, text("partitioner")));
  s.producer.emplace_back("partitioner", std::move(partitioner));
  DROMEDARY_TRY_VOID(bytesFormat(uri, "keySerializer", text("keySerializer"), "Serializer"));
  DROMEDARY_TRY_VOID(bytesFormat(uri, "valueSerializer", text("valueSerializer"), "Serializer"));
  std::string acks = text("requestRequiredAcks");
  s.producer.emplace_back("acks", acks);
  // As the Java client: idempotence by default, but only where acks allows it.
  bool idempotent = options.getBool("enableIdempotence");
  if (!options.isSet("enableIdempotence") && acks != "all" && acks != "-1") idempotent = false;
  s.producer.emplace_back("enable.idempotence", idempotent ? "true" : "false");
  if (options.isSet("retries")) s.producer.emplace_back("retries", number("retries"));
  s.producer.emplace_back("retry.backoff.ms", number("retryBackoffMs"));
  s.producer.emplace_back("linger.ms", number("lingerMs"));
  s.producer.emplace_back("batch.size", number("batchSize"));
  s.producer.emplace_back("compression.codec", text("compressionCodec"));
  s.producer.emplace_back("delivery.timeout.ms", number("deliveryTimeoutMs"));
  s.producer.emplace_back("request.timeout.ms", number("requestTimeoutMs"));
  s.producer.emplace_back("max.in.flight.requests.per.connection", number("maxInFlightRequest"));
  s.producer.emplace_back("message.max.bytes", number("maxRequestSize"));
  s.producer.emplace_back("queue.buffering.max.messages", number("queueBufferingMaxMessages"));
  s.producer.emplace_back("queue.buffering.max.kbytes",
                          std::to_string(std::max<int64_t>(1, options.getInt("bufferMemorySize") / 1024)));

  // librdkafka's own names last: they win over what the options above set.
  for (auto& [name, value] : additional) s.common.emplace_back(name, value);

  DROMEDARY_TRY(filter, headerFilterStrategyOption(context, text("headerFilterStrategy"),
                                                   uri.text(), defaultFilter()));
  s.filter = std::move(filter);

  // Every property tried now: a bad value fails the route at load, naming the endpoint.
  for (const Properties* role : {&s.consumer, &s.producer}) {
    DROMEDARY_TRY(conf, makeConf(s.uri, {&s.common, role}));
    rd_kafka_conf_destroy(conf);
  }
  return s;
}

}  // namespace dromedary::component::kafka
