// SPDX-License-Identifier: Apache-2.0
#include <dromedary/core/message.h>

#include <gtest/gtest.h>

#include <cctype>
#include <new>

#include "alloc_counter.h"

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

TEST(HeadersTest, AKeyFindsItsHeaderWhateverTheCase) {
  const HeaderKey key("Content-Type");
  Headers h{{"content-type", "a"}, {"x", 1}};
  ASSERT_NE(h.get(key), nullptr);
  EXPECT_EQ(h.get(key)->getString(), "a");
  h.set(key, Value("b"));
  ASSERT_EQ(h.size(), 2u);
  EXPECT_EQ(h.begin()->name, "content-type") << "the case first set is kept";
  EXPECT_EQ(h.get("CONTENT-TYPE")->getString(), "b");
  EXPECT_TRUE(h.remove(key));
  EXPECT_EQ(h.get(key), nullptr);
}

TEST(HeadersTest, TheHashOfANameIgnoresItsCase) {
  for (std::string_view name : {"", "a", "abc", "Kind", "tier1", "Content-Type",
                                "CamelFilterMatched", "a-name-of-exactly-32-characters!"}) {
    std::string upper(name);
    for (char& c : upper) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
    EXPECT_EQ(headerNameHash(name), headerNameHash(upper)) << name;
  }
  static_assert(headerNameHash("CamelSplitIndex") == headerNameHash("camelsplitindex"));
  EXPECT_NE(headerNameHash("a"), headerNameHash("aa"));
  EXPECT_NE(headerNameHash("foo"), headerNameHash("fop"));
}

TEST(HeadersTest, NamesWhoseHashesCollideStayApart) {
  // Two names of one length with the same 32-bit hash (found by search): a lookup compares
  // the names where the hashes agree.
  ASSERT_EQ(headerNameHash("h00028113"), headerNameHash("h00038357"));
  Headers h;
  h.set("h00028113", 1);
  h.set(HeaderKey("h00038357"), Value(2));
  ASSERT_EQ(h.size(), 2u);
  EXPECT_EQ(h.get("h00028113")->getInt(), 1);
  EXPECT_EQ(h.get(HeaderKey("h00038357"))->getInt(), 2);
  EXPECT_TRUE(h.remove("h00028113"));
  EXPECT_EQ(h.get("h00028113"), nullptr);
  EXPECT_EQ(h.get("H00038357")->getInt(), 2);
}

TEST(HeadersTest, EntriesKeepTheirHashesThroughRemovalsAndCopies) {
  Headers h{{"a", 1}, {"Internal-1", 2}, {"b", 3}, {"Internal-2", 4}, {"c", 5}};
  h.removeIf([](std::string_view name) { return name.starts_with("Internal"); });
  Headers copy;
  copy = h;
  for (const Headers* each : {&h, &copy}) {
    ASSERT_EQ(each->size(), 3u);
    EXPECT_EQ(each->get(HeaderKey("A"))->getInt(), 1);
    EXPECT_EQ(each->get("B")->getInt(), 3);
    EXPECT_EQ(each->get(HeaderKey("c"))->getInt(), 5);
    EXPECT_EQ(each->get("internal-1"), nullptr);
  }
  for (const Headers::Entry& e : h) EXPECT_EQ(e.hash, headerNameHash(e.name)) << e.name;
}

TEST(HeadersTest, ATextSlotIsTheHeadersTextOrANewEmptyOne) {
  const HeaderKey key("tier");
  Headers h{{"n", 1}};
  h.textSlot(key) = "gold";
  EXPECT_EQ(h.get("TIER")->getString(), "gold");
  EXPECT_EQ(h.textSlot(key), "gold") << "an existing text is handed back as it is";
  h.set("n", 1);
  EXPECT_EQ(h.textSlot(HeaderKey("N")), "") << "a value that was not text becomes empty text";
  EXPECT_TRUE(h.get("n")->isString());
}

TEST(HeadersTest, ASpareEntrysTextKeepsItsCapacityForTheNextTextSlot) {
  const HeaderKey key("tier");
  Headers h;
  h.textSlot(key) = std::string(100, 'x');
  const char* buffer = h.get(key)->getString().data();
  h.clear();
  std::string& text = h.textSlot(key);
  EXPECT_EQ(text, std::string(100, 'x')) << "a spare entry keeps its last text, to be assigned";
  text.assign(80, 'y');
  EXPECT_EQ(h.get(key)->getString().data(), buffer);
}

// Removed, cleared and truncated entries keep their last text (a copy no longer than it is
// then inline): what they held never shows through, whatever the new text's length.
TEST(HeadersTest, AReusedEntryHoldsExactlyItsNewText) {
  Headers h;
  for (size_t last : {0u, 1u, 3u, 4u, 7u, 8u, 15u, 16u, 17u, 40u}) {
    for (size_t next : {0u, 1u, 2u, 5u, 8u, 9u, 16u, 20u, 40u}) {
      h.set("a", std::string(last, 'o'));
      h.set("b", 1);
      h.clear();
      const std::string text(next, 'n');
      h = Headers{{"a", text}};
      ASSERT_EQ(h.size(), 1u);
      EXPECT_EQ(h.get("a")->getString(), text) << last << " then " << next;
      h.remove("a");
      h.textSlot(HeaderKey("a")).assign(next, 'm');
      EXPECT_EQ(h.get("a")->getString(), std::string(next, 'm')) << last << " then " << next;
    }
  }
}

// A spare entry's last text (another message's, in a pooled exchange) never shows, even when
// the new value cannot be stored (no memory): set() takes the entry back, a text slot assigned
// over is left empty.
TEST(HeadersTest, AFailedSetNeverShowsWhatARemovedEntryHeld) {
  const HeaderKey key("secret");
  Headers h;
  h.set(key, "the last message's text");
  h.clear();
  const Value longer{std::string(100, 'n')};  // past the old text and inline buffer: allocates
  bool threw = false;
  {
    testing::FailingAllocations failing;
    try {
      h.set(key, longer);
    } catch (const std::bad_alloc&) {
      threw = true;
    }
  }
  EXPECT_TRUE(threw);
  EXPECT_EQ(h.get(key), nullptr);
  EXPECT_EQ(h.size(), 0u);
  h.set(key, longer);
  EXPECT_EQ(*h.get(key), longer);
  h.clear();
  const std::string value(1000, 'v');  // past the entry's buffer (100): allocates
  threw = false;
  {
    testing::FailingAllocations failing;
    try {
      detail::assignText(h.textSlot(key), value);
    } catch (const std::bad_alloc&) {
      threw = true;
    }
  }
  EXPECT_TRUE(threw);
  ASSERT_NE(h.get(key), nullptr);
  EXPECT_EQ(h.get(key)->getString(), "") << "empty, not the last message's text";
}

// A new header list makes room for a few entries at once: the second to fourth header of a
// new message (a key, then kafka.RECORD_META) do not move the entries before them.
TEST(HeadersTest, ANewListTakesOneAllocationForItsFirstFourEntries) {
  Headers h;
  testing::AllocationScope scope;
  h.set("a", Value(int64_t{1}));
  h.set("b", Value("short"));
  h.set("c", Value(2.5));
  h.set("d", Value(true));
  EXPECT_EQ(scope.allocations(), 1u);  // names and values within their inline buffers
  h.set("e", Value(int64_t{5}));
  EXPECT_EQ(scope.allocations(), 2u);  // then the vector's usual growth
  EXPECT_EQ(h.size(), 5u);
  EXPECT_EQ(*h.get("a"), Value(int64_t{1}));
  EXPECT_EQ(*h.get("e"), Value(int64_t{5}));
}

TEST(ShortTextTest, SameBytesFindsADifferenceInAnyByteAtEveryLength) {
  for (size_t n = 0; n <= 80; ++n) {
    std::string a;
    for (size_t i = 0; i < n; ++i) a.push_back(static_cast<char>('a' + i % 26));
    const std::string same = a;  // another buffer
    EXPECT_TRUE(detail::sameBytes(a, same)) << n;
    for (size_t i = 0; i < n; ++i) {
      std::string b = a;
      b[i] = '#';
      EXPECT_FALSE(detail::sameBytes(a, b)) << n << " at " << i;
    }
    EXPECT_FALSE(detail::sameBytes(a, a + "z")) << n;
  }
}

TEST(ShortTextTest, AssignTextCopiesEveryLengthAndFromInsideItself) {
  for (size_t before = 0; before <= 40; ++before) {
    for (size_t n = 0; n <= 40; ++n) {
      std::string from;
      for (size_t i = 0; i < n; ++i) from.push_back(static_cast<char>('a' + i % 26));
      std::string to(before, '#');
      detail::assignText(to, from);
      ASSERT_EQ(to, from) << before << " then " << n;
      // From a part of itself (the tail, overlapping its head), as a header set from itself.
      std::string self = std::string(before, '#') + from;
      detail::assignText(self, std::string_view(self).substr(before));
      ASSERT_EQ(self, from) << "from inside, " << before << " then " << n;
    }
  }
}

TEST(HeadersTest, SettingAnotherHeadersEntryCopiesItsNameAndValue) {
  Headers from{{"Camel-Index", 3}};
  Headers to{{"camel-index", 1}, {"other", "o"}};
  to.set(*from.begin());
  ASSERT_EQ(to.size(), 2u);
  EXPECT_EQ(to.get("CAMEL-INDEX")->getInt(), 3);
  Headers empty;
  empty.set(*from.begin());
  EXPECT_EQ(empty.begin()->name, "Camel-Index");
}

TEST(HeadersTest, CopyOverSpareEntriesOfOtherKindsGivesTheSourcesValues) {
  Headers to{{"a", "text"}, {"b", 7}, {"c", true}, {"d", 1.5}};
  to.clear();  // spare entries: text, a number, a flag, a double
  Headers from{{"a", 1}, {"b", "seven"}, {"c", Value()}, {"d", false}, {"e", 2.5}};
  to = from;
  EXPECT_EQ(to, from);
  EXPECT_TRUE(to.get("c")->isNull());
  EXPECT_EQ(to.get("a")->getInt(), 1);
  EXPECT_EQ(to.get("b")->getString(), "seven");
  EXPECT_FALSE(to.get("d")->getBool());
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

// A cleared message's spare buffer keeps its last text, and the next text body is copied over
// it: shorter, equal or longer, set as a view or as a value, the body is exactly the new text.
// A copy of the message has its headers and body only.
TEST(MessageTest, ABodyOverTheSpareBuffersLastTextIsExactlyTheNewText) {
  Message m;
  const std::string last(1000, 'a');
  for (size_t n : {0u, 5u, 16u, 17u, 999u, 1000u, 1001u, 3000u}) {
    m.setBody(std::string_view(last));
    m.clear();
    const std::string next(n, 'n');
    m.setBody(std::string_view(next));
    ASSERT_EQ(m.body().getString(), next) << n;
    m.clear();
    m.setBody(Value(next));
    ASSERT_EQ(m.body().getString(), next) << n;
    m.clear();
  }
  m.setBody(std::string_view(last));
  m.clear();
  m.setBody(7);
  const Message copy = m;
  EXPECT_EQ(copy.body(), Value(7));
  m.setBody(std::string_view("x"));
  EXPECT_EQ(m.body().getString(), "x");
}

// The text may be a view into the body it replaces (bytes made text): copied out first.
TEST(MessageTest, ATextBodyFromAViewIntoTheOldBodyIsCopiedBeforeTheOldOneGoes) {
  Message m;
  m.setBody(Value(Bytes(std::string_view("bytes that become the text of the body"))));
  m.setBody(m.body().getBytes().view());
  EXPECT_EQ(m.body(), Value("bytes that become the text of the body"));
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
