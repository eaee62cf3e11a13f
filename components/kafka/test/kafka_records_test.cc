// SPDX-License-Identifier: Apache-2.0
// Header values go out as Camel's DefaultKafkaHeaderSerializer writes them.
#include <gtest/gtest.h>

#include "kafka_records.h"

namespace dromedary::component::kafka {
namespace {

std::string bytesOf(const Value& v) {
  std::string out;
  EXPECT_TRUE(headerBytes(v, out));
  return out;
}

TEST(KafkaRecordsTest, HeaderValuesAreWrittenAsCamelsSerializerWritesThem) {
  EXPECT_EQ(bytesOf(Value("abc")), "abc");
  EXPECT_EQ(bytesOf(Value(int64_t{258})), std::string("\0\0\0\0\0\0\x01\x02", 8));
  EXPECT_EQ(bytesOf(Value(1.0)), std::string("\x3f\xf0\0\0\0\0\0\0", 8));
  EXPECT_EQ(bytesOf(Value(true)), "true");
  EXPECT_EQ(bytesOf(Value(Bytes(std::string_view("\x01\x00", 2)))), std::string("\x01\x00", 2));
}

TEST(KafkaRecordsTest, NullsMapsAndListsAreNotSentAsHeaders) {
  std::string out;
  EXPECT_FALSE(headerBytes(Value(), out));
  EXPECT_FALSE(headerBytes(Value(ValueMap{{"a", Value(1)}}), out));
  EXPECT_FALSE(headerBytes(Value(ValueList{Value(1)}), out));
}

TEST(KafkaRecordsTest, AMapBodyGoesOutAsJsonAndANullBodyAsATombstone) {
  std::string scratch;
  std::string_view out;
  ASSERT_TRUE(payloadBytes(Value(ValueMap{{"id", Value(7)}}), scratch, out));
  EXPECT_EQ(out, R"({"id":7})");
  EXPECT_FALSE(payloadBytes(Value(), scratch, out));
}

}  // namespace
}  // namespace dromedary::component::kafka
