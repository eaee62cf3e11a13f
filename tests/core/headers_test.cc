// SPDX-License-Identifier: Apache-2.0
#include <dromedary/core/message.h>

#include <gtest/gtest.h>

namespace dromedary {
namespace {

TEST(HeadersTest, NamesAreCaseInsensitive) {
  Headers h;
  h.set("Foo", 1);
  ASSERT_NE(h.get("foo"), nullptr);
  EXPECT_EQ(h.get("FOO")->getInt(), 1);
}

TEST(HeadersTest, KeepsTheCaseFirstSetForOutput) {
  Headers h;
  h.set("Content-Type", "a");
  h.set("content-type", "b");
  ASSERT_EQ(h.size(), 1u);
  EXPECT_EQ(h.begin()->name, "Content-Type");
  EXPECT_EQ(h.get("CONTENT-TYPE")->getString(), "b");
}

TEST(HeadersTest, RemoveIsCaseInsensitiveAndKeepsOrder) {
  Headers h{{"a", 1}, {"B", 2}, {"c", 3}};
  EXPECT_TRUE(h.remove("b"));
  EXPECT_FALSE(h.remove("b"));
  ASSERT_EQ(h.size(), 2u);
  EXPECT_EQ(h.begin()[0].name, "a");
  EXPECT_EQ(h.begin()[1].name, "c");
}

TEST(HeadersTest, ClearKeepsCapacityForReuse) {
  Headers h;
  h.set("a-long-header-name-that-allocates", std::string(64, 'x'));
  const char* name_buffer = h.begin()->name.data();
  h.clear();
  EXPECT_TRUE(h.empty());
  h.set("another-long-header-name-that-fit", "y");
  EXPECT_EQ(h.begin()->name.data(), name_buffer);
}

TEST(HeadersTest, SettingFromAnotherHeaderOfTheSameMapIsSafe) {
  Headers h;
  for (int i = 0; i < 8; ++i) {
    std::string name = std::to_string(i);
    name.insert(name.begin(), 'h');
    h.set(name, std::string(40, static_cast<char>('a' + i)));
  }
  h.set("copy", *h.get("h3"));  // may grow the vector the source lives in
  EXPECT_EQ(h.get("copy")->getString(), std::string(40, 'd'));
}

TEST(HeadersTest, CopyIsElementWise) {
  Headers a{{"x", 1}, {"y", "two"}};
  Headers b;
  b = a;
  EXPECT_EQ(a, b);
}

TEST(HeadersTest, TheVersionMovesWithEveryChangeAndNotOnReads) {
  Headers h{{"a", 1}};
  uint32_t v = h.version();
  EXPECT_NE(h.get("a"), nullptr);
  EXPECT_EQ(h.version(), v);  // reads leave it
  auto moved = [&](auto change) {
    uint32_t before = h.version();
    change();
    return h.version() != before;
  };
  EXPECT_TRUE(moved([&] { h.set("a", 2); }));
  EXPECT_TRUE(moved([&] { h.slot("b") = 3; }));
  EXPECT_TRUE(moved([&] { h.find("a"); }));  // a mutable pointer may be written through
  EXPECT_TRUE(moved([&] { h.valueAt(0) = 4; }));
  EXPECT_TRUE(moved([&] { h.remove("b"); }));
  EXPECT_TRUE(moved([&] { h.removeIf([](std::string_view) { return false; }); }));
  EXPECT_TRUE(moved([&] { h = Headers{{"c", 5}}; }));
  Headers other{{"d", 6}};
  EXPECT_TRUE(moved([&] { h = other; }));
  EXPECT_TRUE(moved([&] { h.clear(); }));
}

TEST(HeadersTest, AMovedInVersionIsNeverOneTheObjectHadBefore) {
  Headers h;
  for (int i = 0; i < 10; ++i) h.set("x", i);
  uint32_t seen = h.version();
  Headers young;  // version 0
  h = std::move(young);
  EXPECT_GT(h.version(), seen);
  EXPECT_EQ(young.size(), 0u);
}

TEST(MessageTest, ClearMakesTheBodyNull) {
  Message m;
  m.setBody(std::string_view("hello there, a body that does not fit in SSO"));
  m.clear();
  EXPECT_TRUE(m.body().isNull());
}

TEST(MessageTest, AClearedSmallBodysBufferServesTheNextBodyAndALargeOneIsFreed) {
  Message m;
  m.setBody(std::string_view(std::string(1000, 'a')));
  const char* small = m.body().getString().data();
  m.clear();
  m.setBody(std::string_view("next"));
  EXPECT_EQ(m.body().getString().data(), small);  // the same buffer: no allocation
  m.setBody(std::string_view(std::string(Message::kMaxSpareBody + 1, 'b')));
  m.clear();
  // A pooled exchange must not keep a large body's buffer (12 KB bodies through a broker
  // pinned tens of MiB in the exchange pools): the next body gets a buffer of its own size.
  m.setBody(std::string_view("next"));
  EXPECT_LE(m.body().getString().capacity(), Message::kMaxSpareBody);
}

// setBody(const Value&) of text over text: a shorter or equal text is copied inline, a
// longer one assigned; the message's own body set again is left as it is.
TEST(MessageTest, TextOverTextKeepsEveryByteWhateverTheLengths) {
  Message m;
  m.setBody(Value("item-10"));
  for (const char* text : {"item-9", "item-11", "a much longer item than any before it", "", "x"}) {
    m.setBody(Value(text));
    EXPECT_EQ(m.body(), Value(text));
  }
  m.setBody(Value("self"));
  m.setBody(m.body());
  EXPECT_EQ(m.body(), Value("self"));
}

}  // namespace
}  // namespace dromedary
