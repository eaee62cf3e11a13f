// SPDX-License-Identifier: Apache-2.0
// Endpoint options are checked, and mapped onto librdkafka's, when the endpoint is created:
// no cluster needed.
#include <gmock/gmock.h>

#include <dromedary/dromedary.h>

#include "kafka_settings.h"

namespace dromedary::component::kafka {
namespace {

using ::testing::Contains;
using ::testing::HasSubstr;
using ::testing::Pair;

std::string endpointError(std::string_view uri, const std::string& key = {},
                          const std::string& value = {}) {
  Context context;
  registerBuiltinComponents(context);
  if (!key.empty()) context.properties().set(key, value);
  auto e = context.endpoint(uri);
  return e ? std::string() : e.error().toString();
}

Result<KafkaSettings> settingsOf(std::string_view text) {
  Context context;
  auto uri = Uri::parse(text).value();
  DROMEDARY_TRY(options, EndpointOptions::resolve(kafkaOptions(), uri, true));
  return kafkaSettings(context, uri, options, options.unknownOptions());
}

TEST(KafkaSettingsTest, CamelsOptionsMapOntoLibrdkafkasProperties) {
  auto s = settingsOf(
      "kafka:orders?brokers=b1:9092,b2:9092&groupId=billing&autoOffsetReset=earliest"
      "&sessionTimeoutMs=6000&requestRequiredAcks=1&compressionCodec=lz4&lingerMs=5"
      "&clientId=app");
  ASSERT_TRUE(s) << s.error().toString();
  EXPECT_THAT(s->common, Contains(Pair("bootstrap.servers", "b1:9092,b2:9092")));
  EXPECT_THAT(s->common, Contains(Pair("client.id", "app")));
  EXPECT_THAT(s->consumer, Contains(Pair("group.id", "billing")));
  EXPECT_THAT(s->consumer, Contains(Pair("auto.offset.reset", "earliest")));
  EXPECT_THAT(s->consumer, Contains(Pair("session.timeout.ms", "6000")));
  EXPECT_THAT(s->consumer, Contains(Pair("enable.auto.offset.store", "false")));
  EXPECT_THAT(s->producer, Contains(Pair("acks", "1")));
  // acks=1 leaves the Java client's default idempotence off, as it does there.
  EXPECT_THAT(s->producer, Contains(Pair("enable.idempotence", "false")));
  EXPECT_THAT(s->producer, Contains(Pair("compression.codec", "lz4")));
  EXPECT_THAT(s->producer, Contains(Pair("linger.ms", "5")));
  // Keys land on the partitions Java's default partitioner picks.
  EXPECT_THAT(s->producer, Contains(Pair("partitioner", "murmur2_random")));
}

TEST(KafkaSettingsTest, TopicsAreTheCommaSeparatedPath) {
  auto s = settingsOf("kafka:a, b ,c?brokers=x:1");
  ASSERT_TRUE(s);
  EXPECT_EQ(s->topics, (std::vector<std::string>{"a", "b", "c"}));
}

TEST(KafkaSettingsTest, AdditionalPropertiesPassThroughAndWin) {
  auto s = settingsOf("kafka:t?brokers=x:1&additionalProperties.fetch.wait.max.ms=7"
                      "&additionalProperties.client.rack=r1");
  ASSERT_TRUE(s) << s.error().toString();
  EXPECT_THAT(s->common, Contains(Pair("fetch.wait.max.ms", "7")));
  EXPECT_THAT(s->common, Contains(Pair("client.rack", "r1")));
}

TEST(KafkaSettingsTest, APropertyLibrdkafkaRefusesNamesItAndTheEndpoint) {
  EXPECT_THAT(endpointError("kafka:t?brokers=x:1&additionalProperties.no.such.thing=1"),
              AllOf(HasSubstr("kafka:t?brokers=x:1"), HasSubstr("no.such.thing")));
}

TEST(KafkaSettingsTest, SaslJaasConfigGivesUserAndPassword) {
  auto s = settingsOf(
      "kafka:t?brokers=x:1&securityProtocol=SASL_SSL&saslMechanism=SCRAM-SHA-512"
      "&saslJaasConfig=org.apache.kafka.common.security.scram.ScramLoginModule%20required%20"
      "username%3D%22alice%22%20password%3D%22s3cret%22%3B");
  ASSERT_TRUE(s) << s.error().toString();
  EXPECT_THAT(s->common, Contains(Pair("security.protocol", "sasl_ssl")));
  EXPECT_THAT(s->common, Contains(Pair("sasl.mechanisms", "SCRAM-SHA-512")));
  EXPECT_THAT(s->common, Contains(Pair("sasl.username", "alice")));
  EXPECT_THAT(s->common, Contains(Pair("sasl.password", "s3cret")));
  EXPECT_EQ(jaasCredentials("x required;"), std::nullopt);
}

TEST(KafkaSettingsTest, SaslAuthTypeSetsProtocolMechanismAndCredentials) {
  auto s = settingsOf("kafka:t?brokers=x:1&saslAuthType=SCRAM_SHA_256&saslUsername=bob"
                      "&saslPassword=pw");
  ASSERT_TRUE(s) << s.error().toString();
  EXPECT_THAT(s->common, Contains(Pair("security.protocol", "sasl_ssl")));
  EXPECT_THAT(s->common, Contains(Pair("sasl.mechanisms", "SCRAM-SHA-256")));
  EXPECT_THAT(s->common, Contains(Pair("sasl.username", "bob")));
  auto plain = settingsOf("kafka:t?brokers=x:1&saslAuthType=PLAIN&saslUsername=bob"
                          "&saslPassword=pw&securityProtocol=SASL_PLAINTEXT");
  ASSERT_TRUE(plain);
  EXPECT_THAT(plain->common, Contains(Pair("security.protocol", "sasl_plaintext")));
  EXPECT_THAT(plain->common, Contains(Pair("sasl.mechanisms", "PLAIN")));
  auto oauth = settingsOf("kafka:t?brokers=x:1&saslAuthType=OAUTH&oauthClientId=c"
                          "&oauthClientSecret=s&oauthTokenEndpointUri=https://idp/token");
  if (oauth) {
    EXPECT_THAT(oauth->common, Contains(Pair("sasl.oauthbearer.method", "oidc")));
    EXPECT_THAT(oauth->common, Contains(Pair("sasl.mechanisms", "OAUTHBEARER")));
  } else {
    // Debian 12's librdkafka is built without OIDC: said at load, naming the endpoint.
    EXPECT_THAT(oauth.error().toString(), HasSubstr("not supported in this build"));
  }
  EXPECT_THAT(endpointError("kafka:t?brokers=x:1&saslAuthType=PLAIN"),
              HasSubstr("needs saslUsername and saslPassword"));
  EXPECT_THAT(endpointError("kafka:t?brokers=x:1&saslAuthType=OAUTH"),
              HasSubstr("needs oauthClientId"));
}

TEST(KafkaSettingsTest, BadOptionsFailNamingTheEndpoint) {
  EXPECT_THAT(endpointError("kafka:t"), HasSubstr("has no brokers"));
  EXPECT_EQ(endpointError("kafka:t", "camel.component.kafka.brokers", "x:1"), "");
  EXPECT_THAT(endpointError("kafka:t?brokers=x:1&groupid=g&bogus=1"),
              AllOf(HasSubstr("unknown option 'bogus'"), HasSubstr("additionalProperties")));
  EXPECT_THAT(endpointError("kafka:t?brokers=x:1&schemaRegistryURL=http://r"),
              HasSubstr("does not have"));
  EXPECT_THAT(endpointError("kafka:t?brokers=x:1&autoOffsetReset=oldest"),
              HasSubstr("autoOffsetReset"));
  EXPECT_THAT(endpointError("kafka:t?brokers=x:1&consumersCount=0"),
              HasSubstr("consumersCount"));
  EXPECT_THAT(endpointError("kafka:t?brokers=x:1&valueDeserializer=io.confluent.KafkaAvroDeserializer"),
              HasSubstr("text (StringDeserializer) or bytes"));
  EXPECT_THAT(endpointError("kafka:t?brokers=x:1&partitionAssignor=StickyAssignor"),
              HasSubstr("partitionAssignor"));
  EXPECT_THAT(endpointError("kafka:t?brokers=x:1&sslTruststoreLocation=/etc/t.jks"),
              HasSubstr("PEM"));
  EXPECT_THAT(endpointError("kafka:?brokers=x:1"), HasSubstr("names no topic"));
}

TEST(KafkaSettingsTest, ComponentPropertiesFillWhatTheUriLeavesOut) {
  Context context;
  registerBuiltinComponents(context);
  context.properties().set("camel.component.kafka.brokers", "x:1");
  context.properties().set("camel.component.kafka.auto-offset-reset", "bogus");
  auto e = context.endpoint("kafka:t");
  ASSERT_FALSE(e);
  EXPECT_THAT(e.error().toString(), HasSubstr("autoOffsetReset"));
  // The URI's own value wins.
  EXPECT_TRUE(context.endpoint("kafka:t?autoOffsetReset=earliest"));
}

TEST(KafkaSettingsTest, AdditionalPropertiesFromThePropertiesFileReachLibrdkafka) {
  Context context;
  registerBuiltinComponents(context);
  context.properties().set("camel.component.kafka.brokers", "x:1");
  context.properties().set("camel.component.kafka.additionalProperties[client.rack]", "r1");
  context.properties().set("camel.component.kafka.additional-properties[no.such.property]", "1");
  auto e = context.endpoint("kafka:t");
  ASSERT_FALSE(e);  // librdkafka refuses the second, which shows both were passed on
  EXPECT_THAT(e.error().toString(), HasSubstr("no.such.property"));
  // The endpoint's own additionalProperties.NAME wins over the file's.
  Context other;
  registerBuiltinComponents(other);
  other.properties().set("camel.component.kafka.brokers", "x:1");
  other.properties().set("camel.component.kafka.additionalProperties[linger.ms]", "bogus");
  EXPECT_TRUE(other.endpoint("kafka:t?additionalProperties.linger.ms=5"));
  EXPECT_FALSE(other.endpoint("kafka:t"));
}

TEST(KafkaSettingsTest, BadComponentPropertiesAreNamed) {
  EXPECT_THAT(endpointError("kafka:t", "camel.component.kafka.brokers", "{{nope}}"),
              AllOf(HasSubstr("camel.component.kafka.brokers"), HasSubstr("nope")));
  EXPECT_THAT(endpointError("kafka:t?brokers=x:1", "camel.component.kafka.additionalProperties[]",
                            "1"),
              HasSubstr("expected camel.component.kafka.additionalProperties[NAME]"));
}

TEST(KafkaSettingsTest, AProducerSendsToOneTopic) {
  Context context;
  registerBuiltinComponents(context);
  auto endpoint = context.endpoint("kafka:a,b?brokers=127.0.0.1:1");
  ASSERT_TRUE(endpoint);
  auto producer = (*endpoint)->createProducer();
  ASSERT_FALSE(producer);
  EXPECT_THAT(producer.error().toString(), HasSubstr("one topic"));
}

}  // namespace
}  // namespace dromedary::component::kafka
