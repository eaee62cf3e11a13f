// SPDX-License-Identifier: Apache-2.0
#include "link_send.h"

#include <proton/delivery.h>
#include <proton/link.h>

namespace dromedary::component::amqp {

namespace {

// The C link under a proton::sender. Proton keeps it behind a protected accessor of its
// object base; a pointer to that member, named through a derived class, reads it without
// touching Proton's internals.
struct LinkOf : proton::sender {
  static pn_link_t* of(const proton::sender& sender) {
    pn_link_t* (proton::internal::object<pn_link_t>::*get)() const = &LinkOf::pn_object;
    return (sender.*get)();
  }
};

}  // namespace

void sendOnLink(const proton::sender& sender, const proton::message& message,
                const proton::binary& tag, std::vector<char>& buffer) {
  message.encode(buffer);  // grows `buffer` only when the message does not fit
  pn_link_t* link = LinkOf::of(sender);
  pn_delivery_t* delivery =
      pn_delivery(link, pn_dtag(reinterpret_cast<const char*>(tag.data()), tag.size()));
  pn_link_send(link, buffer.data(), buffer.size());
  pn_link_advance(link);
  if (pn_link_snd_settle_mode(link) == PN_SND_SETTLED) pn_delivery_settle(delivery);
}

}  // namespace dromedary::component::amqp
