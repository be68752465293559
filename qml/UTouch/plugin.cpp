/* UTouch QML module: type registration (see plugin.h). */
#include "plugin.h"

#include <QtQml>

#include "gesture-area.h"
#include "gesture.h"
#include "subscription.h"

void
UTouchQmlPlugin::registerTypes(const char *uri)
{
	qmlRegisterType<UTouchGestureArea>(uri, 1, 0, "GestureArea");
	qmlRegisterType<UTouchSubscription>(uri, 1, 0, "Subscription");
	qmlRegisterUncreatableType<UTouchGesture>(uri, 1, 0, "Gesture",
		QStringLiteral("Gesture objects come from a GestureArea's signals"));
	qmlRegisterModule(uri, 1, 0);
}
