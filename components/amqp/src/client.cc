// SPDX-License-Identifier: Apache-2.0
#include "client.h"

#include <fmt/format.h>

#include <dromedary/engine/context.h>

#include "connection.h"

namespace dromedary::component::amqp {

Client::Client(Context& context, std::string scheme, AmqpConfig config)
    : context_(context), scheme_(std::move(scheme)), config_(std::move(config)),
      container_(fmt::format("dromedary-{}-{}", context.name().empty() ? "context" : context.name(),
                             context.uid())),
      work_queue_(container_) {
  container_.auto_stop(false);
  thread_ = std::thread([this] { container_.run(); });
}

Client::~Client() {
  if (producer_) producer_->close();
  if (consumer_) consumer_->close();
  container_.stop();
  thread_.join();
}

Connection& Client::connection(std::unique_ptr<Connection>& slot, const char* role) {
  std::lock_guard lock(mutex_);
  if (!slot) {
    // One container id per connection: brokers take it as the client id and refuse twins.
    std::string id = fmt::format("dromedary-{}-{}-{}-{}",
                                 context_.name().empty() ? "context" : context_.name(),
                                 context_.uid(), scheme_, role);
    slot = std::make_unique<Connection>(*this, context_, config_, std::move(id));
    slot->start();
  }
  return *slot;
}

Connection& Client::producerConnection() { return connection(producer_, "producer"); }
Connection& Client::consumerConnection() { return connection(consumer_, "consumer"); }

AmqpConnectionCounts Client::counts() const {
  std::lock_guard lock(mutex_);
  AmqpConnectionCounts counts;
  for (const Connection* c : {producer_.get(), consumer_.get()}) {
    if (!c) continue;
    counts.opened += c->openedCount();
    counts.open += c->isOpen() ? 1 : 0;
  }
  return counts;
}

}  // namespace dromedary::component::amqp
