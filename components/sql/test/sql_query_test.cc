// SPDX-License-Identifier: Apache-2.0
// How a query's parameters are read: positional (# and ?), named, expressions and IN lists,
// quoted text left alone, and the errors for a query that cannot be read.
#include <gmock/gmock.h>

#include <dromedary/dromedary.h>

#include "sql_query.h"

namespace dromedary::testing {
namespace {

using component::sql::ParsedQuery;
using component::sql::QueryParameter;
using ::testing::HasSubstr;

class SqlQueryTest : public ::testing::Test {
 protected:
  SqlQueryTest() { registerBuiltinComponents(context); }
  ParsedQuery parse(std::string_view sql, std::string_view placeholder = "#") {
    auto q = ParsedQuery::parse(sql, placeholder, context);
    EXPECT_TRUE(q) << q.error().toString();
    return q ? std::move(*q) : ParsedQuery();
  }
  Context context;
};

TEST_F(SqlQueryTest, HashAndQuestionMarkArePositionalParametersNumberedInOrder) {
  ParsedQuery q = parse("select * from t where a = # and b = ?");
  EXPECT_EQ(q.statementSql(), "select * from t where a = $1 and b = $2");
  ASSERT_EQ(q.parameters().size(), 2u);
  EXPECT_EQ(q.parameters()[0].kind, QueryParameter::Kind::Positional);
}

TEST_F(SqlQueryTest, NamedParametersAndExpressionsAreRecognised) {
  ParsedQuery q = parse("insert into t values (:#id, :#${header.name}, :#$simple{body})");
  EXPECT_EQ(q.statementSql(), "insert into t values ($1, $2, $3)");
  EXPECT_EQ(q.parameters()[0].kind, QueryParameter::Kind::Named);
  EXPECT_EQ(q.parameters()[0].name, "id");
  EXPECT_EQ(q.parameters()[1].kind, QueryParameter::Kind::Expression);
  EXPECT_EQ(q.parameters()[2].name, "${body}");
}

TEST_F(SqlQueryTest, QuotedTextAndCastsAreNotParameters) {
  ParsedQuery q = parse("select '#tag?', x::text from t where y = :#y");
  EXPECT_EQ(q.statementSql(), "select '#tag?', x::text from t where y = $1");
}

TEST_F(SqlQueryTest, WithoutThePlaceholderOnlyQuestionMarksArePositional) {
  ParsedQuery q = parse("select '#' || a from t where b = ? and c = :?c", "");
  EXPECT_EQ(q.statementSql(), "select '#' || a from t where b = $1 and c = $2");
}

TEST_F(SqlQueryTest, AnInListExpandsToAsManyParametersAsItHasElements) {
  ParsedQuery q = parse("select * from t where a in (:#in:names) and b = :#b");
  EXPECT_TRUE(q.hasInList());
  Exchange ex(&context);
  ex.message().setHeader("names", Value(ValueList{Value("x"), Value("y"), Value("z")}));
  ex.message().setHeader("b", Value(int64_t{4}));
  std::vector<Value> values;
  std::vector<size_t> counts;
  ASSERT_TRUE(q.values(ex, ex.message().body(), values, &counts));
  EXPECT_EQ(values.size(), 4u);
  EXPECT_EQ(q.statementSql(counts), "select * from t where a in ($1,$2,$3) and b = $4");
}

TEST_F(SqlQueryTest, AnEmptyInListMatchesNothing) {
  ParsedQuery q = parse("select * from t where a in (:#in:names)");
  EXPECT_EQ(q.statementSql({0}), "select * from t where a in (NULL)");
}

TEST_F(SqlQueryTest, AnUnclosedExpressionOrAMissingNameIsAnError) {
  auto unclosed = ParsedQuery::parse("select :#${header.x from t", "#", context);
  ASSERT_FALSE(unclosed);
  EXPECT_THAT(unclosed.error().message, HasSubstr("unclosed expression"));
  auto nameless = ParsedQuery::parse("select * from t where a = :# ", "#", context);
  ASSERT_FALSE(nameless);
  EXPECT_THAT(nameless.error().message, HasSubstr("a parameter name is missing"));
}

TEST_F(SqlQueryTest, ABadExpressionIsAnErrorNamingIt) {
  auto bad = ParsedQuery::parse("select :#${header.x ==} from t", "#", context);
  ASSERT_FALSE(bad);
  EXPECT_THAT(bad.error().message, HasSubstr("${header.x ==}"));
}

}  // namespace
}  // namespace dromedary::testing
