// SPDX-License-Identifier: Apache-2.0
#include <gmock/gmock.h>
#include <proton/binary.hpp>
#include <proton/message_id.hpp>

#include "message_codec.h"

namespace dromedary::component::amqp {
namespace {

// Encodes, puts the message through AMQP's wire format and decodes it: what a peer sees.
Message roundTrip(const Message& in, OutgoingQos qos = {}, proton::message* wire = nullptr) {
  proton::message m;
  std::string error;
  EXPECT_TRUE(encodeMessage(in, qos, *amqpHeaderFilterStrategy(), m, error)) << error;
  std::vector<char> bytes;
  m.encode(bytes);
  proton::message decoded;
  decoded.decode(bytes);
  if (wire) *wire = decoded;
  Message out;
  decodeMessage(decoded, *amqpHeaderFilterStrategy(), out);
  return out;
}

TEST(AmqpMessageCodecTest, BodyTypesSurviveTheWire) {
  for (const Value& body : {Value("text"), Value(int64_t{42}), Value(2.5), Value(true), Value()}) {
    Message in;
    in.setBody(body);
    EXPECT_EQ(roundTrip(in).body(), body) << body.typeName();
  }
  Message bytes;
  bytes.setBody(Value(Bytes(std::string_view("\x00\x01\x02", 3))));
  Message out = roundTrip(bytes);
  ASSERT_TRUE(out.body().isBytes());
  EXPECT_EQ(out.body().getBytes().size(), 3u);
}

TEST(AmqpMessageCodecTest, LargeTextAndBinaryBodiesKeepEveryByteAndTheirAmqpType) {
  std::string text(12 * 1024, 'x');
  for (size_t i = 0; i < text.size(); i += 97) text[i] = static_cast<char>('a' + i % 26);
  proton::message wire;
  Message in;
  in.setBody(text);
  EXPECT_EQ(roundTrip(in, {}, &wire).body(), Value(text));
  EXPECT_EQ(wire.body().type(), proton::STRING);

  std::string raw(12 * 1024, '\0');
  for (size_t i = 0; i < raw.size(); ++i) raw[i] = static_cast<char>(i * 31);
  in.setBody(Value(Bytes(std::string_view(raw))));
  Message out = roundTrip(in, {}, &wire);
  EXPECT_EQ(wire.body().type(), proton::BINARY);
  ASSERT_TRUE(out.body().isBytes());
  EXPECT_EQ(out.body().getBytes().view(), raw);
}

TEST(AmqpMessageCodecTest, MapsAndListsKeepOrderAndNesting) {
  Message in;
  in.setBody(Value(ValueMap{{"b", Value(1)}, {"a", Value(ValueList{Value("x"), Value(2.0)})}}));
  Message out = roundTrip(in);
  ASSERT_TRUE(out.body().isMap());
  const ValueMap& map = out.body().getMap();
  ASSERT_EQ(map.size(), 2u);
  EXPECT_EQ(map[0].first, "b");
  EXPECT_EQ(map[0].second, Value(1));
  ASSERT_TRUE(map[1].second.isList());
  EXPECT_EQ(map[1].second.getList()[0], Value("x"));
}

TEST(AmqpMessageCodecTest, HeadersTravelAsTypedApplicationProperties) {
  Message in;
  in.setHeader("count", Value(7));
  in.setHeader("ratio", Value(0.5));
  in.setHeader("flag", Value(true));
  in.setHeader("name", Value("n"));
  Message out = roundTrip(in);
  EXPECT_EQ(*out.getHeader("count"), Value(7));
  EXPECT_EQ(*out.getHeader("ratio"), Value(0.5));
  EXPECT_EQ(*out.getHeader("flag"), Value(true));
  EXPECT_EQ(*out.getHeader("name"), Value("n"));
}

TEST(AmqpMessageCodecTest, InternalHeadersAndUnsupportedValuesAreNotSent) {
  Message in;
  in.setHeader("CamelSplitIndex", Value(1));
  in.setHeader("JMSReplyTo", Value("q"));
  in.setHeader("aList", Value(ValueList{Value(1)}));
  in.setHeader("kept", Value(1));
  proton::message wire;
  roundTrip(in, {}, &wire);
  EXPECT_EQ(wire.properties().size(), 1u);
  EXPECT_TRUE(wire.properties().exists("kept"));
}

// A peer sends what it likes as application properties; Camel's own never become headers
// (CVE-2025-27636's "CAmelExecCommandExecutable" spelling included), and the message's own
// fields win over a property named like them.
TEST(AmqpMessageCodecTest, CamelPropertiesFromAPeerAreNotTakenAsHeaders) {
  proton::message sent;
  sent.body("x");
  sent.properties().put("CamelHttpResponseCode", 302);
  sent.properties().put("CAmelExecCommandExecutable", "rm");
  sent.properties().put("org.apache.camel.Secret", "s");
  sent.properties().put("JMSPriority", 9);
  sent.properties().put("kept", "k");
  sent.priority(4);
  std::vector<char> bytes;
  sent.encode(bytes);
  proton::message wire;
  wire.decode(bytes);
  Message out;
  decodeMessage(wire, *amqpHeaderFilterStrategy(), out);
  EXPECT_EQ(out.getHeader("CamelHttpResponseCode"), nullptr);
  EXPECT_EQ(out.getHeader("CAmelExecCommandExecutable"), nullptr);
  EXPECT_EQ(out.getHeader("org.apache.camel.Secret"), nullptr);
  EXPECT_EQ(*out.getHeader("JMSPriority"), Value(int64_t{4}));
  EXPECT_EQ(*out.getHeader("kept"), Value("k"));
}

TEST(AmqpMessageCodecTest, ARemoteFailureIsReadThoughItsPropertyIsNoHeader) {
  proton::message wire;
  wire.body("boom");
  wire.properties().put(std::string(kExceptionProperty), "ProcessorFailed");
  Message out;
  Value failure;
  decodeMessage(wire, *amqpHeaderFilterStrategy(), out, &failure);
  EXPECT_EQ(failure, Value("ProcessorFailed"));
  EXPECT_EQ(out.getHeader(kExceptionProperty), nullptr);
}

TEST(AmqpMessageCodecTest, AnEndpointsOwnStrategyDecidesWhatCrosses) {
  DefaultHeaderFilterStrategy strategy;
  strategy.setOutFilter({"Authorization"});
  strategy.setOutFilterStartsWith({});
  strategy.setInFilterStartsWith({"X-Internal-"});
  Message in;
  in.setHeader("Authorization", Value("Bearer t"));
  in.setHeader("CamelLeaks", Value("now allowed out"));
  proton::message m;
  std::string error;
  ASSERT_TRUE(encodeMessage(in, {}, strategy, m, error)) << error;
  EXPECT_FALSE(m.properties().exists("Authorization"));
  EXPECT_TRUE(m.properties().exists("CamelLeaks"));
  proton::message wire;
  wire.properties().put("X-Internal-Id", "1");
  wire.properties().put("CamelIn", "now allowed in");
  Message out;
  decodeMessage(wire, strategy, out);
  EXPECT_EQ(out.getHeader("X-Internal-Id"), nullptr);
  EXPECT_EQ(*out.getHeader("CamelIn"), Value("now allowed in"));
}

TEST(AmqpMessageCodecTest, JmsHeadersMapToMessageProperties) {
  Message in;
  in.setHeader("JMSCorrelationID", Value("c-1"));
  in.setHeader("JMSType", Value("order"));
  in.setHeader("JMSXGroupID", Value("g"));
  in.setHeader("Content-Type", Value("application/json"));
  OutgoingQos qos;
  qos.durable = false;
  qos.priority = 7;
  proton::message wire;
  Message out = roundTrip(in, qos, &wire);
  EXPECT_EQ(messageIdText(wire.correlation_id()), "c-1");
  EXPECT_EQ(wire.subject(), "order");
  EXPECT_EQ(wire.content_type(), "application/json");
  EXPECT_FALSE(wire.durable());
  EXPECT_EQ(*out.getHeader("JMSCorrelationID"), Value("c-1"));
  EXPECT_EQ(*out.getHeader("JMSType"), Value("order"));
  EXPECT_EQ(*out.getHeader("JMSXGroupID"), Value("g"));
  EXPECT_EQ(*out.getHeader("JMSPriority"), Value(7));
  EXPECT_EQ(*out.getHeader("JMSDeliveryMode"), Value(1));
  EXPECT_EQ(*out.getHeader("JMSRedelivered"), Value(false));
}

TEST(AmqpMessageCodecTest, PreserveMessageQosTakesPriorityAndModeFromHeaders) {
  Message in;
  in.setHeader("JMSPriority", Value(2));
  in.setHeader("JMSDeliveryMode", Value(1));
  OutgoingQos qos;
  qos.preserveMessageQos = true;
  proton::message wire;
  roundTrip(in, qos, &wire);
  EXPECT_EQ(wire.priority(), 2);
  EXPECT_FALSE(wire.durable());
}

}  // namespace
}  // namespace dromedary::component::amqp

namespace dromedary::component::amqp {
namespace {

struct Opaque {
  int x = 1;
};

TEST(AmqpMessageCodecTest, ABodyWithNoTextFormIsRefusedNamingItsType) {
  Message in;
  in.setBody(Value::makeObject<Opaque>());
  proton::message m;
  std::string error;
  EXPECT_FALSE(encodeMessage(in, {}, *amqpHeaderFilterStrategy(), m, error));
  EXPECT_THAT(error, ::testing::HasSubstr("cannot be sent over AMQP"));
}

}  // namespace
}  // namespace dromedary::component::amqp
