// SPDX-License-Identifier: Apache-2.0
// What a consuming route's link says to the broker when it opens (its name, durability and
// selector) and when the route stops, seen by a Qpid Proton peer listening on loopback: the
// brokers here do not keep durable subscriptions (RabbitMQ 3.x makes a new queue per attach;
// Proton's example broker has no topics) nor are they known to apply JMS selectors.
#include <dromedary/amqp/amqp_component.h>
#include <dromedary/dromedary.h>
#include <gmock/gmock.h>

#include <condition_variable>
#include <future>
#include <mutex>
#include <proton/connection.hpp>
#include <proton/container.hpp>
#include <proton/error_condition.hpp>
#include <proton/listen_handler.hpp>
#include <proton/listener.hpp>
#include <proton/messaging_handler.hpp>
#include <proton/sender.hpp>
#include <proton/source.hpp>
#include <proton/symbol.hpp>
#include <proton/terminus.hpp>
#include <proton/value.hpp>
#include <thread>

namespace dromedary {
namespace {

using namespace std::chrono_literals;

// Accepts every link a client opens towards it and records how the client's receiving links
// attach and end.
class Peer : public proton::messaging_handler, public proton::listen_handler {
 public:
  struct Link {
    std::string name;
    enum proton::terminus::durability_mode durability = proton::terminus::NONDURABLE;
    enum proton::terminus::expiry_policy expiry = proton::terminus::LINK_CLOSE;
    std::string ended;     // "detach" (the terminus kept) or "close"
    std::string selector;  // the source's jms-selector filter, as Proton prints it
  };

  Peer() : container_(*this), thread_([this] { container_.run(); }) {
    container_.listen("127.0.0.1:0", static_cast<proton::listen_handler&>(*this));
    port_ = listening_.get_future().get();
  }
  ~Peer() {
    container_.stop();
    thread_.join();
  }

  int port() const { return port_; }

  // The first link the client opened, once it has ended (or what is known after `wait`).
  Link firstLinkOnceEnded(std::chrono::milliseconds wait) {
    std::unique_lock lock(mutex_);
    changed_.wait_for(lock, wait, [&] { return !links_.empty() && !links_[0].ended.empty(); });
    return links_.empty() ? Link{} : links_[0];
  }

 private:
  void on_open(proton::listener& l) override { listening_.set_value(l.port()); }
  // A client that goes away without closing its connection is no failure of the peer
  // (Proton's default throws, which would end the process).
  void on_error(const proton::error_condition&) override {}

  void on_sender_open(proton::sender& s) override {
    {
      std::lock_guard lock(mutex_);
      proton::source::filter_map filters = s.source().filters();
      proton::symbol key("jms-selector");
      links_.push_back({s.name(),
                        s.source().durability_mode(),
                        s.source().expiry_policy(),
                        {},
                        filters.exists(key) ? proton::to_string(filters.get(key)) : ""});
    }
    changed_.notify_all();
    s.open();
  }
  void on_sender_detach(proton::sender& s) override { ended(s, "detach"); }
  void on_sender_close(proton::sender& s) override { ended(s, "close"); }

  void ended(proton::sender& s, const char* how) {
    {
      std::lock_guard lock(mutex_);
      for (Link& l : links_) {
        if (l.name == s.name() && l.ended.empty()) l.ended = how;
      }
    }
    changed_.notify_all();
  }

  proton::container container_;
  std::promise<int> listening_;
  int port_ = 0;
  std::mutex mutex_;
  std::condition_variable changed_;
  std::vector<Link> links_;
  std::thread thread_;
};

// Starts a context whose route "sub" consumes `uri` from the peer, then stops the route.
Peer::Link linkOfAStoppedRoute(Peer& peer, const std::string& uri) {
  Context context;
  registerBuiltinComponents(context);
  AmqpConfig config;
  config.remoteUri = "amqp://127.0.0.1:" + std::to_string(peer.port());
  registerAmqpComponent(context, "amqp", config);
  EXPECT_TRUE(context.addRoutes(
      [&](RouteBuilder& b) { b.from(uri).routeId("sub").process([](Exchange&) {}); }));
  EXPECT_TRUE(context.start());
  EXPECT_TRUE(context.stopRoute("sub"));
  Peer::Link link = peer.firstLinkOnceEnded(10s);
  context.stop();
  return link;
}

TEST(AmqpLinkLifecycleTest, ADurableSubscriptionIsDetachedWhenItsRouteStopsSoTheBrokerKeepsIt) {
  Peer peer;
  Peer::Link link = linkOfAStoppedRoute(peer, "amqp:topic:news?durableSubscriptionName=audit");
  EXPECT_EQ(link.name, "audit");  // the subscription's name is the link's
  EXPECT_EQ(link.durability, proton::source::UNSETTLED_STATE);
  EXPECT_EQ(link.expiry, proton::source::NEVER);
  EXPECT_EQ(link.ended, "detach");
}

TEST(AmqpLinkLifecycleTest, ASelectorIsSentAsTheSourcesJmsSelectorFilter) {
  Peer peer;
  Peer::Link link = linkOfAStoppedRoute(peer, "amqp:queue:orders?selector=priority > 3");
  EXPECT_THAT(link.selector, ::testing::HasSubstr("apache.org:selector-filter:string"));
  EXPECT_THAT(link.selector, ::testing::HasSubstr("priority > 3"));
}

TEST(AmqpLinkLifecycleTest, AnOrdinaryConsumerClosesItsLinkWhenItsRouteStops) {
  Peer peer;
  Peer::Link link = linkOfAStoppedRoute(peer, "amqp:queue:orders");
  EXPECT_EQ(link.durability, proton::source::CONFIGURATION);  // durableQueues
  EXPECT_EQ(link.ended, "close");
}

}  // namespace
}  // namespace dromedary
