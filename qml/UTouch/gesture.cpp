/* UTouch QML module: Gesture (see gesture.h). */
#include "gesture.h"

#include <QtMath>

#include "gesture-area.h"

UTouchGesture::UTouchGesture(UTouchGestureArea *area, unsigned int id, UTouchSubscription *sub)
	: QObject(area), m_area(area), m_id(id), m_sub(sub)
{
}

QPointF
UTouchGesture::translation() const
{
	return QPointF(m_cumulative[0][2], m_cumulative[1][2]);
}

qreal
UTouchGesture::scale() const
{
	return std::hypot(qreal(m_cumulative[0][0]), qreal(m_cumulative[1][0]));
}

qreal
UTouchGesture::rotation() const
{
	return qRadiansToDegrees(std::atan2(qreal(m_cumulative[1][0]), qreal(m_cumulative[0][0])));
}

QPointF
UTouchGesture::deltaTranslation() const
{
	return QPointF(m_delta[0][2], m_delta[1][2]);
}

qreal
UTouchGesture::deltaScale() const
{
	return std::hypot(qreal(m_delta[0][0]), qreal(m_delta[1][0]));
}

qreal
UTouchGesture::deltaRotation() const
{
	return qRadiansToDegrees(std::atan2(qreal(m_delta[1][0]), qreal(m_delta[0][0])));
}

/*
 * grail's transforms are a linear part and the travel of the centroid:
 * p' = L (p - pivot) + pivot + t, as one matrix.
 */
QMatrix4x4
UTouchGesture::toMatrix(const float (&m)[2][3], QPointF pivot)
{
	const qreal a = m[0][0], b = m[0][1], c = m[1][0], d = m[1][1];
	const qreal tx = pivot.x() + m[0][2] - (a * pivot.x() + b * pivot.y());
	const qreal ty = pivot.y() + m[1][2] - (c * pivot.x() + d * pivot.y());
	return QMatrix4x4(float(a), float(b), 0, float(tx),
			  float(c), float(d), 0, float(ty),
			  0, 0, 1, 0,
			  0, 0, 0, 1);
}

bool
UTouchGesture::accept()
{
	return m_area && m_area->decide(this, true);
}

bool
UTouchGesture::reject()
{
	return m_area && m_area->decide(this, false);
}

void
UTouchGesture::setDecision(Decision d)
{
	if (m_decision == d)
		return;
	m_decision = d;
	Q_EMIT decisionChanged();
}

void
UTouchGesture::update(UGSlice slice, uint64_t time, const QList<int> &touches,
		      const QList<QPointF> &points)
{
	switch (grail_slice_get_state(slice)) {
	case UGGestureStateBegin: m_state = Began; break;
	case UGGestureStateUpdate: m_state = Updated; break;
	case UGGestureStateEnd: m_state = Ended; break;
	}
	m_recognized = int(grail_slice_get_recognized(slice));
	m_touches = touches;
	m_points = points;
	m_originalCentroid = QPointF(grail_slice_get_original_center_x(slice),
				     grail_slice_get_original_center_y(slice));
	m_originalRadius = grail_slice_get_original_radius(slice);
	m_centerOfRotation = QPointF(grail_slice_get_center_of_rotation_x(slice),
				     grail_slice_get_center_of_rotation_y(slice));
	const UGTransform *c = grail_slice_get_cumulative_transform(slice);
	const UGTransform *d = grail_slice_get_transform(slice);
	for (int r = 0; r < 2; r++) {
		for (int k = 0; k < 3; k++) {
			m_cumulative[r][k] = c ? (*c)[r][k] : (r == k ? 1.0f : 0.0f);
			m_delta[r][k] = d ? (*d)[r][k] : (r == k ? 1.0f : 0.0f);
		}
	}
	/* grail: pixels per ms; Qt's velocities are pixels per second */
	m_velocity = QPointF(qreal(grail_slice_get_velocity_x(slice)) * 1000.0,
			     qreal(grail_slice_get_velocity_y(slice)) * 1000.0);
	m_constructionFinished = grail_slice_get_construction_finished(slice) != 0;
	m_canceled = grail_slice_get_canceled(slice) != 0;
	m_tapCount = int(grail_slice_get_tap_count(slice));
	m_time = time;
	Q_EMIT changed();
}
