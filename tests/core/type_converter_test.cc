// SPDX-License-Identifier: Apache-2.0
#include <dromedary/core/type_converter.h>

#include <gtest/gtest.h>

namespace dromedary {
namespace {

struct Order {
  std::string id;
};
struct Invoice {
  std::string number;
};
struct Unconvertible {};

TEST(TypeConverterTest, UserConverterFromStringIsUsedByAs) {
  TypeConverterRegistry::global().add<std::string, Order>(
      [](const std::string& s) -> std::optional<Order> { return Order{s}; });
  EXPECT_EQ(Value("A-1").as<Order>().id, "A-1");
}

TEST(TypeConverterTest, UserConverterToStringIsUsedForStringForms) {
  TypeConverterRegistry::global().add<Invoice, std::string>(
      [](const Invoice& i) -> std::optional<std::string> { return "invoice " + i.number; });
  Value v = Value::makeObject<Invoice>(Invoice{"7"});
  EXPECT_EQ(v.as<std::string>(), "invoice 7");
}

TEST(TypeConverterTest, ConvertsThroughStringWhenNoDirectConverterExists) {
  TypeConverterRegistry::global().add<std::string, Order>(
      [](const std::string& s) -> std::optional<Order> { return Order{s}; });
  EXPECT_EQ(Value(42).as<Order>().id, "42");  // Long -> String -> Order
}

TEST(TypeConverterTest, CachesLookupsIncludingMisses) {
  TypeConverterRegistry& registry = TypeConverterRegistry::global();
  Value v = Value::makeObject<Unconvertible>();
  EXPECT_FALSE(v.tryAs<Order>());
  uint64_t misses = registry.cacheMissesForTest();
  for (int i = 0; i < 100; ++i) EXPECT_FALSE(v.tryAs<Order>());
  EXPECT_EQ(registry.cacheMissesForTest(), misses);
}

TEST(TypeConverterTest, ConverterReturningNulloptFailsTheConversion) {
  TypeConverterRegistry registry;
  registry.add<std::string, Invoice>(
      [](const std::string&) -> std::optional<Invoice> { return std::nullopt; });
  const auto* converter = registry.find(typeIdOf<std::string>(), typeIdOf<Invoice>());
  ASSERT_NE(converter, nullptr);
  Value out;
  EXPECT_FALSE((*converter)(Value("x"), out));
}

}  // namespace
}  // namespace dromedary
