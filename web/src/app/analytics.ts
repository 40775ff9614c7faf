import { useEffect, useRef } from 'react';
import { useLocation } from 'wouter';
import { api } from '../api/client';
import { anonymousId } from '../api/errorReporting';
import { type IdentifyEvent, type PageEvent, identifyEvent, pageEvent, swallowed } from './analyticsEvents';
import { usePerson } from './person';

export const sendPage = (event: PageEvent) => swallowed(() => api.POST('/api/events/page', { body: event }));
export const sendIdentify = (event: IdentifyEvent) => swallowed(() => api.POST('/api/events/identify', { body: event }));

/**
 * The shell's analytics: a `page` event on every route change, and `identify` once per person
 * signed in (again after a different person signs in, or while viewing as someone).
 */
export function useAnalytics(): void {
  const [location] = useLocation();
  const person = usePerson().data?.data;
  const identified = useRef<string | null>(null);
  const userId = person?.id;
  useEffect(() => {
    if (!person || identified.current === person.id) return;
    identified.current = person.id;
    void sendIdentify(identifyEvent(person, anonymousId()));
  }, [person]);
  useEffect(() => {
    void sendPage(pageEvent(location, document.title, anonymousId(), userId));
    // A page is its route: the person arriving later does not make it a new page view (userId is read, not a trigger).
  }, [location]);
}
