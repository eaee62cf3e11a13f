// SPDX-License-Identifier: Apache-2.0
// Beans of any type in the context, and the factories that make a route file's `beans:` of
// Camel's classes: properties flattened and resolved, errors at the bean's name.
#include <gmock/gmock.h>

#include "support/route_file_fixture.h"

namespace dromedary::testing {
namespace {

using ::testing::HasSubstr;

struct Connection {
  std::string url;
  int size = 0;
};

class BeanFactoryTest : public RouteFileTest {
 protected:
  BeanFactoryTest() {
    h.context.addBeanFactory("com.acme.Pool", [](Context& c, const Context::BeanDefinition& b)
                                                  -> Result<void> {
      auto conn = std::make_shared<Connection>();
      const std::string* url = b.property("url");
      if (!url) return makeError(ErrorCode::InvalidOption, "needs the property 'url'");
      conn->url = *url;
      if (const std::string* size = b.property("limits.size")) conn->size = std::stoi(*size);
      c.bindBean<Connection>(b.name, conn);
      return {};
    });
  }
};

TEST_F(BeanFactoryTest, ABeanIsFoundByNameOnlyAsTheTypeItWasBoundAs) {
  h.context.bindBean<Connection>("c", std::make_shared<Connection>(Connection{"x", 1}));
  ASSERT_NE(h.context.beanByName<Connection>("c"), nullptr);
  EXPECT_EQ(h.context.beanByName<std::string>("c"), nullptr);
  EXPECT_EQ(h.context.beanByName<Connection>("d"), nullptr);
  EXPECT_EQ(h.context.beanNames<Connection>(), std::vector<std::string>{"c"});
}

TEST_F(BeanFactoryTest, ARouteFilesBeanOfAKnownClassIsMadeWithItsPropertiesResolved) {
  h.context.properties().set("host", "db.example");
  loadYaml(R"(
- beans:
    - name: pool
      type: "#class:com.acme.Pool"
      properties:
        url: "postgresql://{{host}}/app"
        limits:
          size: 7
- route:
    from: {uri: direct:a, steps: [{to: mock:b}]}
)");
  auto conn = h.context.beanByName<Connection>("pool");
  ASSERT_NE(conn, nullptr);
  EXPECT_EQ(conn->url, "postgresql://db.example/app");
  EXPECT_EQ(conn->size, 7);
}

TEST_F(BeanFactoryTest, AFactorysErrorIsReportedAtTheBeansName) {
  std::string error = yamlError(R"(
- beans:
    - name: pool
      type: com.acme.Pool
)");
  EXPECT_THAT(error, HasSubstr("bean 'pool' of type 'com.acme.Pool': needs the property 'url'"));
  EXPECT_THAT(error, HasSubstr("routes.yaml:3:13"));
}

TEST_F(BeanFactoryTest, ABeanOfAnUnknownClassStillSaysItCannotBeCreated) {
  std::string error = yamlError(R"(
- beans:
    - name: thing
      type: com.acme.Unknown
)");
  EXPECT_THAT(error, HasSubstr("cannot be created: there are no Java classes here"));
}

TEST_F(BeanFactoryTest, CamelsAggregationStrategyClassesAreBeansAnAggregateCanName) {
  // As Camel JBang's smart-log-analyzer example declares its strategy.
  loadYaml(R"(
- beans:
    - name: joined
      type: "org.apache.camel.processor.aggregate.StringAggregationStrategy"
      properties:
        delimiter: "|"
    - name: latest
      type: "#class:org.apache.camel.processor.aggregate.UseLatestAggregationStrategy"
- route:
    from:
      uri: direct:in
      steps:
        - aggregate:
            aggregationStrategy: "#joined"
            correlationExpression: {constant: all}
            completionSize: 3
            steps: [{to: mock:joined}]
)");
  for (const char* body : {"a", "b", "c"}) ASSERT_TRUE(h.producer.sendBody("direct:in", body));
  auto& out = h.mock("mock:joined");
  ASSERT_EQ(out.receivedExchanges().size(), 1u);
  EXPECT_EQ(out.receivedExchanges()[0]->message().body(), Value("a|b|c"));
}

TEST_F(BeanFactoryTest, AnAggregationStrategyBeansUnknownPropertyIsNamedWithWhatItTakes) {
  std::string error = yamlError(R"(
- beans:
    - name: joined
      type: org.apache.camel.processor.aggregate.StringAggregationStrategy
      properties:
        separator: ","
)");
  EXPECT_THAT(error, HasSubstr("bean 'joined' of type "
                               "'org.apache.camel.processor.aggregate.StringAggregationStrategy': "
                               "StringAggregationStrategy has no property 'separator' (it takes: "
                               "delimiter)"));
  EXPECT_THAT(error, HasSubstr("routes.yaml:3:13"));
}

TEST_F(BeanFactoryTest, AStrategyBeansBadFlagAndACamelXmlBeanWithoutANameAreErrorsAtTheirPlace) {
  std::string error = yamlError(R"(
- beans:
    - name: original
      type: org.apache.camel.processor.aggregate.UseOriginalAggregationStrategy
      properties:
        propagateException: maybe
)");
  EXPECT_THAT(error, HasSubstr("propagateException must be true or false, not 'maybe'"));
  EXPECT_THAT(error, HasSubstr("routes.yaml:3:13"));
  error = xmlError(R"(<camel>
  <bean type="org.apache.camel.processor.aggregate.UseLatestAggregationStrategy"/>
</camel>)");
  EXPECT_THAT(error, HasSubstr("<bean> needs 'name' at routes.xml:2:3"));
}

TEST_F(BeanFactoryTest, CamelsXmlRootDeclaresBeansWithPropertiesAndSpringBeansInside) {
  LoadReport report = loadXml(R"(<camel>
  <bean name="joined" type="org.apache.camel.processor.aggregate.StringAggregationStrategy">
    <properties>
      <property key="delimiter" value="+"/>
    </properties>
  </bean>
  <beans xmlns="http://www.springframework.org/schema/beans">
    <bean id="pool" class="com.acme.Pool">
      <property name="url" value="postgresql://db/app"/>
    </bean>
    <bean class="org.apache.camel.support.ClassicUuidGenerator"/>
  </beans>
  <route>
    <from uri="direct:in"/>
    <aggregate aggregationStrategy="#joined" completionSize="2">
      <correlationExpression><constant>all</constant></correlationExpression>
      <to uri="mock:joined"/>
    </aggregate>
  </route>
</camel>)");
  ASSERT_NE(h.context.beanByName<Connection>("pool"), nullptr);
  EXPECT_EQ(h.context.beanByName<Connection>("pool")->url, "postgresql://db/app");
  ASSERT_EQ(report.notes.size(), 1u);  // the anonymous Spring bean, ignored
  EXPECT_THAT(report.notes[0], HasSubstr("ignored <bean>"));
  for (const char* body : {"x", "y"}) ASSERT_TRUE(h.producer.sendBody("direct:in", body));
  auto& out = h.mock("mock:joined");
  ASSERT_EQ(out.receivedExchanges().size(), 1u);
  EXPECT_EQ(out.receivedExchanges()[0]->message().body(), Value("x+y"));
}

TEST_F(BeanFactoryTest, ACamelXmlBeanOfAJavaClassOrMadeByJavaIsAnErrorAtItsPlace) {
  std::string error = xmlError(R"(<camel>
  <bean name="greeter" type="camel.example.StandaloneGreeter">
    <properties><property key="message" value="Hello"/></properties>
  </bean>
</camel>)");
  EXPECT_THAT(error, HasSubstr("bean 'greeter' of type 'camel.example.StandaloneGreeter' cannot "
                               "be created: there are no Java classes here"));
  EXPECT_THAT(error, HasSubstr("routes.xml:2:9"));
  error = xmlError(R"(<camel>
  <bean name="made" type="com.acme.Pool">
    <constructors><constructor index="0" value="x"/></constructors>
  </bean>
</camel>)");
  EXPECT_THAT(error, HasSubstr("<constructors> in <bean> needs Java"));
  EXPECT_THAT(error, HasSubstr("routes.xml:3:5"));
}

}  // namespace
}  // namespace dromedary::testing
